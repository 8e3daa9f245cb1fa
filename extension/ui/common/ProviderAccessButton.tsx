import { browser } from 'wxt/browser';
import type { ProviderAccess } from '../../messaging/provider';
import { Button, type ButtonProps } from './Button';

/**
 * "Allow access to 127.0.0.1:11434": asks the browser for the provider's site access
 * (`optional_host_permissions`), which lets the worker reach a server that sends no CORS
 * headers (issue 14). The request runs inside the click, as the browser requires; the browser
 * shows its own prompt naming the site. `onAnswer` hears whether access is now granted.
 */
export function ProviderAccessButton({
  access,
  onAnswer,
  size,
  variant = 'primary',
}: {
  readonly access: ProviderAccess;
  readonly onAnswer?: (granted: boolean) => void;
  readonly size?: ButtonProps['size'];
  readonly variant?: ButtonProps['variant'];
}) {
  return (
    <Button
      size={size}
      variant={variant}
      onClick={() => {
        browser.permissions
          .request({ origins: [access.pattern] })
          .then((granted) => onAnswer?.(granted))
          .catch((error: unknown) => {
            console.warn('[switchyard] could not ask for access to the provider', error);
            onAnswer?.(false);
          });
      }}
    >
      Allow access to {access.origin}
    </Button>
  );
}
