import { useEffect, useState } from 'react';
import { browser } from 'wxt/browser';
import { Button } from '../common/Button';
import { grantedFor, siteAccessPattern, type SiteGrant } from './site-access';

/**
 * Offers to let Switchyard read the active site's pages without a click on its toolbar button
 * each time. Hidden when access is already granted or the tab is not a web page.
 */
export function SiteAccess({ url }: { readonly url: string | null }) {
  const site = siteAccessPattern(url);
  const pattern = site?.pattern ?? null;
  const [known, setKnown] = useState<SiteGrant | null>(null);
  const granted = grantedFor(known, pattern);

  useEffect(() => {
    if (pattern === null) return;
    let live = true;
    browser.permissions
      .contains({ origins: [pattern] })
      .then((has) => {
        if (live) setKnown({ pattern, granted: has });
      })
      .catch(() => {
        if (live) setKnown(null);
      });
    return () => {
      live = false;
    };
  }, [pattern]);

  if (site === null || granted !== false) return null;
  const allow = () => {
    // Called inside the click: the browser shows its own prompt naming the site. The answer is
    // kept for the site it was asked for, whichever tab is active when it comes.
    browser.permissions
      .request({ origins: [site.pattern] })
      .then((has) => {
        setKnown({ pattern: site.pattern, granted: has });
      })
      .catch(() => undefined);
  };
  return (
    <p className="sy-site-access">
      Switchyard reads {site.origin} only after you click its toolbar button.{' '}
      <Button size="small" variant="quiet" onClick={allow}>
        Allow reading {site.origin}
      </Button>
    </p>
  );
}
