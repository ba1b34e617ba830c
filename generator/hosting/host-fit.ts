/**
 * Whether a bundle fits a host: its shape (file count, the largest file, the fullest
 * folder, its rules and the compressed size of its live handler) held against
 * `HOST_LIMITS`. Pure; the build describes the shape from its artifacts and `check` from
 * the files on disk. A breach names the limit, the bundle's figure and the host, in one line.
 */
import { HOST_LIMITS, HOST_NAMES, type HostLimits, type HostName } from './host-limits-table.js';

export interface BundleShape {
  files: number;
  largestFile: { path: string; bytes: number };
  fullestFolder: { path: string; files: number };
  headerRules: number;
  routeRules: number;
  workerCompressedBytes: number;
  functionCompressedBytes: number;
  /**
   * The parted document (`live/bundle-parts.ts`) the handler streams with the most parts,
   * and the largest one: each part is one fetch of the handler, and the whole document one
   * response. None (`parts: 0`) when nothing is parted.
   */
  mostParts: { path: string; parts: number };
  largestStreamed: { path: string; bytes: number };
}

/** What a bundle's parts manifests say of its parted documents. */
export type PartedShape = Pick<BundleShape, 'mostParts' | 'largestStreamed'>;

export const NO_PARTED_DOCUMENTS: PartedShape = {
  mostParts: { path: '', parts: 0 },
  largestStreamed: { path: '', bytes: 0 },
};

export interface HostBreach {
  host: HostName;
  limit: keyof HostLimits;
  figure: number;
  allowed: number;
  message: string;
}

export interface HostFit {
  host: HostName;
  fits: boolean;
  breaches: HostBreach[];
}

/** The shape of a bundle from each file's path and size in bytes. */
export function describeBundleShape(
  sizes: Iterable<readonly [path: string, bytes: number]>,
  rules: Pick<
    BundleShape,
    'headerRules' | 'routeRules' | 'workerCompressedBytes' | 'functionCompressedBytes'
  > &
    Partial<PartedShape>,
): BundleShape {
  let files = 0;
  let largestFile = { path: '', bytes: 0 };
  const folders = new Map<string, number>();
  for (const [path, bytes] of sizes) {
    files += 1;
    if (bytes > largestFile.bytes) largestFile = { path, bytes };
    const slash = path.lastIndexOf('/');
    const folder = slash === -1 ? '' : path.slice(0, slash);
    folders.set(folder, (folders.get(folder) ?? 0) + 1);
  }
  let fullestFolder = { path: '', files: 0 };
  for (const [path, count] of folders)
    if (count > fullestFolder.files) fullestFolder = { path, files: count };
  return { files, largestFile, fullestFolder, ...NO_PARTED_DOCUMENTS, ...rules };
}

const MIB = 1024 * 1024;
const count = (n: number) => n.toLocaleString('en-US');
const mib = (n: number) => `${(n / MIB).toFixed(1)} MiB`;

function figuresOf(
  shape: BundleShape,
): Record<keyof HostLimits, { figure: number; say: (allowed: number) => string }> {
  const folder = shape.fullestFolder.path === '' ? 'the root folder' : `${shape.fullestFolder.path}/`;
  return {
    files: { figure: shape.files, say: (a) => `${count(shape.files)} files, over ${count(a)} a deployment` },
    bytesPerFile: {
      figure: shape.largestFile.bytes,
      say: (a) => `${shape.largestFile.path} is ${mib(shape.largestFile.bytes)}, over ${mib(a)} a file`,
    },
    filesPerFolder: {
      figure: shape.fullestFolder.files,
      say: (a) => `${folder} holds ${count(shape.fullestFolder.files)} files, over ${count(a)} a folder`,
    },
    headerRules: { figure: shape.headerRules, say: (a) => `${shape.headerRules} _headers rules, over ${a}` },
    routeRules: { figure: shape.routeRules, say: (a) => `${shape.routeRules} _routes.json rules, over ${a}` },
    workerCompressedBytes: {
      figure: shape.workerCompressedBytes,
      say: (a) => `_worker.js is ${mib(shape.workerCompressedBytes)} compressed, over ${mib(a)}`,
    },
    subrequests: {
      // The parts, the document's manifest and the parts index, when an isolate starts cold.
      figure: shape.mostParts.parts === 0 ? 0 : shape.mostParts.parts + 2,
      say: (a) =>
        `${shape.mostParts.path} is ${count(shape.mostParts.parts)} parts, ${count(shape.mostParts.parts + 2)} fetches of the live handler, over ${count(a)} subrequests a request`,
    },
    streamedBytes: {
      figure: shape.largestStreamed.bytes,
      say: (a) =>
        `${shape.largestStreamed.path} is ${mib(shape.largestStreamed.bytes)}, over the ${mib(a)} a function may stream (set build.hosts to ["netlify"] to keep documents whole)`,
    },
    functionCompressedBytes: {
      figure: shape.functionCompressedBytes,
      say: (a) => `the Netlify function is ${mib(shape.functionCompressedBytes)} compressed, over ${mib(a)}`,
    },
  };
}

export function checkHostFit(shape: BundleShape, host: HostName): HostFit {
  const limits = HOST_LIMITS[host];
  const figures = figuresOf(shape);
  const breaches: HostBreach[] = [];
  for (const limit of Object.keys(limits) as (keyof HostLimits)[]) {
    const allowed = limits[limit];
    const { figure, say } = figures[limit];
    if (allowed !== undefined && figure > allowed) {
      breaches.push({ host, limit, figure, allowed, message: `${host}: ${say(allowed)}` });
    }
  }
  return { host, fits: breaches.length === 0, breaches };
}

export function checkEveryHost(shape: BundleShape, hosts: readonly HostName[] = HOST_NAMES): HostFit[] {
  return hosts.map((host) => checkHostFit(shape, host));
}
