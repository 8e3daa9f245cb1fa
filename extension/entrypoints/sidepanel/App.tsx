import { SidePanel } from '../../ui/sidepanel/SidePanel';

export function App() {
  return <SidePanel />;
}
