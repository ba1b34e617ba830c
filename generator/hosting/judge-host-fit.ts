/**
 * What the build does with a bundle that does not fit a host: refuse it when the merchant
 * deploys there (`build.hosts`), because the host would reject the deploy or serve a broken
 * site, and the last good bundle is better; otherwise say so once per host, so a merchant
 * choosing a host learns which ones can take this catalog.
 */
import { CatalogError } from '../errors.js';
import type { HostFit } from './host-fit.js';
import type { HostName } from './host-limits-table.js';

export interface HostWarning {
  code: 'HOST_LIMIT';
  message: string;
}

function describe(fit: HostFit): string {
  return fit.breaches.map((breach) => breach.message).join('; ');
}

export function judgeHostFit(fits: readonly HostFit[], targets: readonly HostName[]): HostWarning[] {
  const refused = fits.filter((fit) => !fit.fits && targets.includes(fit.host));
  if (refused.length > 0) {
    throw new CatalogError(
      'HOST_LIMIT',
      `refusing to publish: the bundle does not fit ${refused.map((fit) => fit.host).join(' or ')} (build.hosts): ${refused.map(describe).join('; ')}`,
      { hosts: refused.map((fit) => fit.host), breaches: refused.flatMap((fit) => fit.breaches) },
    );
  }
  return fits
    .filter((fit) => !fit.fits)
    .map((fit) => ({
      code: 'HOST_LIMIT' as const,
      message: `the bundle does not fit ${fit.host}: ${describe(fit)}`,
    }));
}
