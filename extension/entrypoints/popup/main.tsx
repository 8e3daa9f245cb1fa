import '../../zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PopupApp } from '../../ui/popup/PopupApp';
import '../../ui/common/theme.css';
import '../../ui/popup/popup.css';

const root = document.getElementById('root');
if (root !== null) {
  createRoot(root).render(
    <StrictMode>
      <PopupApp />
    </StrictMode>,
  );
}
