import { browser } from 'wxt/browser';
import type { ProviderSettingsView } from '../../messaging/provider';
import { Button } from '../common/Button';
import { Notice } from '../common/Notice';
import { providerProblem } from './provider-status';

export function ProviderNotice({ provider }: { readonly provider: ProviderSettingsView | null }) {
  const problem = providerProblem(provider);
  if (problem === null) return null;
  return (
    <Notice
      tone="warning"
      title="Set up a model"
      actions={
        <Button
          size="small"
          variant="primary"
          onClick={() => {
            void browser.runtime.openOptionsPage();
          }}
        >
          Open settings
        </Button>
      }
    >
      {problem}
    </Notice>
  );
}
