import { browser } from 'wxt/browser';
import { connectPageClient, type PageClient } from '../../messaging/page-client';

let shared: PageClient | undefined;

/** The page's one connection to the worker, opened on first use. */
export function pageClient(): PageClient {
  shared ??= connectPageClient({ connect: (info) => browser.runtime.connect(info) });
  return shared;
}
