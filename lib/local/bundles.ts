/**
 * The synthesized Lambda assets, staged as Lambda runs them: each bundle alone in its own folder,
 * with only the AWS SDK beside it (the nodejs22.x runtime provides `@aws-sdk/*` and the packages
 * they depend on, nothing else). A dependency esbuild left out of a bundle fails here as it
 * would on Lambda, instead of being found in the project's node_modules.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** One synthesized function: its construct id (area, worker or timer name) and its staged entry file. */
export interface StagedFunction {
  /** `Functions`, `Workers` or `Timers`: the construct group the function belongs to. */
  readonly group: string;
  /** The area, worker or timer name (the construct id). */
  readonly name: string;
  readonly logicalId: string;
  /** The staged `index.mjs`. */
  readonly file: string;
  /** The function's environment in the template (values that are tokens are left as objects). */
  readonly environment: Readonly<Record<string, unknown>>;
}

/** The packages Lambda's Node.js runtime provides: every `@aws-sdk/*` package and what it depends on. */
export const runtimeProvidedPackages = (projectRoot: string): string[] => {
  const lock = JSON.parse(readFileSync(resolve(projectRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dependencies?: Record<string, string> }>;
  };
  const topLevel = (name: string) => lock.packages[`node_modules/${name}`];
  const seen = new Set<string>();
  const queue = Object.keys(lock.packages)
    .filter((path) => /^node_modules\/@aws-sdk\/[^/]+$/.test(path))
    .map((path) => path.slice('node_modules/'.length));
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name) || !topLevel(name)) continue;
    seen.add(name);
    queue.push(...Object.keys(topLevel(name)?.dependencies ?? {}));
  }
  return [...seen].sort();
};

/** Finds the stack template in a cloud assembly (`cdk.out`); the first one unless named. */
const templateOf = (cdkOut: string, stackName?: string): { name: string; template: any } => {
  const file = stackName ? `${stackName}.template.json` : readdirSync(cdkOut).find((f) => f.endsWith('.template.json'));
  if (!file || !existsSync(join(cdkOut, file)))
    throw new Error(`no stack template in ${cdkOut}: run \`npx cdk synth\` first`);
  return {
    name: file.replace(/\.template\.json$/, ''),
    template: JSON.parse(readFileSync(join(cdkOut, file), 'utf8')),
  };
};

/**
 * Copies every Node.js function's bundle out of `cdk.out` into a fresh folder outside the
 * project, each in its own subfolder, with `node_modules` holding links to the runtime-provided
 * packages only.
 */
export const stageBundles = (
  cdkOut: string,
  projectRoot: string,
  options: { stackName?: string; into?: string } = {},
): { dir: string; functions: StagedFunction[] } => {
  const { template } = templateOf(cdkOut, options.stackName);
  const dir = options.into ?? mkdtempSync(join(tmpdir(), 'mailstack-bundles-'));
  const modules = join(dir, 'node_modules');
  for (const name of runtimeProvidedPackages(projectRoot)) {
    const link = join(modules, name);
    if (existsSync(link)) continue;
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(resolve(projectRoot, 'node_modules', name), link, 'dir');
  }
  const functions: StagedFunction[] = [];
  for (const [logicalId, resource] of Object.entries<any>(template.Resources ?? {})) {
    if (resource.Type !== 'AWS::Lambda::Function' || !String(resource.Properties?.Runtime ?? '').startsWith('nodejs'))
      continue;
    const asset = resource.Metadata?.['aws:asset:path'];
    const path = String(resource.Metadata?.['aws:cdk:path'] ?? '').split('/');
    if (!asset || path.at(-1) !== 'Resource') continue;
    const [group = '', name = ''] = path.slice(-3, -1);
    const [file] = String(resource.Properties.Handler).split('.');
    const target = join(dir, `${group}-${name}`);
    mkdirSync(target, { recursive: true });
    for (const f of readdirSync(join(cdkOut, asset))) cpSync(join(cdkOut, asset, f), join(target, f));
    functions.push({
      group,
      name,
      logicalId,
      file: join(target, `${file}.mjs`),
      environment: resource.Properties.Environment?.Variables ?? {},
    });
  }
  return { dir, functions };
};
