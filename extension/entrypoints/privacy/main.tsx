import '../../zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// The statement itself is docs/privacy.md, bundled as text: the page shows exactly what the
// repository says, for the version installed, without going online.
import statement from '../../../docs/privacy.md?raw';
import { SafeMarkdown } from '../../ui/sidepanel/SafeMarkdown';
import '../../ui/common/theme.css';
import '../../ui/options/options.css';

const root = document.getElementById('root');
if (root !== null) {
  createRoot(root).render(
    <StrictMode>
      <main className="op-page op-privacy">
        <SafeMarkdown text={statement} />
      </main>
    </StrictMode>,
  );
}
