import '../../zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { OptionsApp } from '../../ui/options/OptionsApp';
import '../../ui/common/theme.css';
import '../../ui/options/options.css';

const root = document.getElementById('root');
if (root !== null) {
  createRoot(root).render(
    <StrictMode>
      <OptionsApp />
    </StrictMode>,
  );
}
