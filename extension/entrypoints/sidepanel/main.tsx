import '../../zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../../ui/common/theme.css';
import './style.css';
import { App } from './App';

// Side panel entrypoint (Chromium: side_panel.default_path; Firefox: sidebar_action). Wiring only.
const root = document.getElementById('root');
if (root === null) throw new Error('The side panel page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
