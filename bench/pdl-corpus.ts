/**
 * The synthetic corpus of bench/pdl.ts: Sysmon-like events and Sigma-style rules, each rule both
 * as PDL and as the JavaScript one would write by hand for the same predicate. Deterministic: a
 * seeded PRNG (mulberry32), so every run sees the same events and rules.
 */

export type BenchEvent = Record<string, unknown>;

export interface RuleSpec {
  readonly pdl: string;
  /** A JavaScript expression over the event `e`, written the way one writes it by hand for this schema. */
  readonly js: string;
  /** Declarations the expression uses (a regex built once). */
  readonly setup?: string;
  /** The field and values a hand-written index would key this rule on; null: always evaluated. */
  readonly primary: { readonly field: string; readonly values: readonly (string | number)[] } | null;
}

export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;

// ---- vocabularies ------------------------------------------------------------------------

const SYS32 = 'C:\\Windows\\System32\\';
const LOLBINS = [
  'cmd.exe',
  'powershell.exe',
  'rundll32.exe',
  'regsvr32.exe',
  'mshta.exe',
  'certutil.exe',
  'wmic.exe',
  'schtasks.exe',
  'bitsadmin.exe',
  'reg.exe',
  'net.exe',
  'sc.exe',
];
const BENIGN = Array.from({ length: 300 }, (_, i) => `svc${i}host.exe`);
/** Tools rules look for; rare in events. */
const TOOLS = Array.from({ length: 5000 }, (_, i) => `tool${i}.exe`);
const FOLDERS = [
  SYS32,
  'C:\\Windows\\SysWOW64\\',
  'C:\\Program Files\\Vendor\\',
  'C:\\Users\\Public\\',
  'C:\\Users\\bob\\AppData\\Local\\Temp\\',
];
const PARENTS = [
  'explorer.exe',
  'services.exe',
  'svchost.exe',
  'winword.exe',
  'excel.exe',
  'wmiprvse.exe',
  'cmd.exe',
  'powershell.exe',
];
const FLAGS = [
  '-enc',
  '-nop',
  '-w hidden',
  '/c whoami',
  'downloadstring',
  'iex',
  '-exec bypass',
  '/transfer',
  'urlcache',
  '-decode',
  'javascript:',
  'scrobj.dll',
  'shadowcopy',
  'delete',
  '/create',
  'add',
  'stop',
  'config',
];
const WORDS = ['update', 'install', 'report', 'sync', 'backup', 'scan', 'query', 'list', 'open', 'save'];
const USERS = Array.from({ length: 400 }, (_, i) => `CORP\\user${i}`);
const SERVICE_USERS = Array.from({ length: 2000 }, (_, i) => `CORP\\svc_acct${i}`);
const HOSTS = Array.from({ length: 500 }, (_, i) => `cdn${i}.example.com`);
const EVIL_HOSTS = Array.from({ length: 5000 }, (_, i) => `c2-${i}.evil.example`);
const PORTS = [80, 443, 53, 22, 3389, 445, 135, 8080, 8443, 4444, 5985, 1433];
const TAGS = Array.from({ length: 2000 }, (_, i) => `attack.t${1000 + i}`);
const REGEXES: readonly { pdl: string; js: string }[] = [
  { pdl: '(?i)\\s-e(nc|ncodedcommand)?\\s+[a-z0-9+/=]{8,}', js: '\\s-e(nc|ncodedcommand)?\\s+[a-z0-9+/=]{8,}' },
  { pdl: '(?i)(iex|invoke-expression)\\s*\\(', js: '(iex|invoke-expression)\\s*\\(' },
  {
    pdl: 'https?://[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}',
    js: 'https?://[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}',
  },
  {
    pdl: '\\\\AppData\\\\Local\\\\Temp\\\\[a-z0-9]+\\.(dll|exe)',
    js: '\\\\AppData\\\\Local\\\\Temp\\\\[a-z0-9]+\\.(dll|exe)',
  },
  { pdl: '(?i)/c\\s+(whoami|net\\s+user|ipconfig)', js: '/c\\s+(whoami|net\\s+user|ipconfig)' },
];

// ---- events --------------------------------------------------------------------------------

function image(random: () => number): string {
  const r = random();
  if (r < 0.25) return SYS32 + pick(random, LOLBINS);
  if (r < 0.97) return pick(random, FOLDERS) + pick(random, BENIGN);
  return pick(random, FOLDERS) + pick(random, TOOLS); // 3%: a tool some rule may name
}

function commandLine(random: () => number, img: string): string {
  let text = `"${img}"`;
  const n = Math.floor(random() * 4);
  for (let i = 0; i < n; i++) text += ' ' + (random() < 0.3 ? pick(random, FLAGS) : pick(random, WORDS));
  const r = random();
  if (r < 0.02) text += ' -enc SQBFAFgAKABOAGUAdwAtAE8A';
  else if (r < 0.04) text += ' iex (New-Object Net.WebClient)';
  else if (r < 0.05) text += ' /c whoami /all';
  else if (r < 0.06) text += ' http://10.1.2.3/payload';
  else if (r < 0.07) text += ' C:\\Users\\bob\\AppData\\Local\\Temp\\x1.dll';
  return text;
}

/** One Sysmon-like event: process creation (60%), network connection (25%), file and registry (15%). */
export function makeEvent(random: () => number): BenchEvent {
  const r = random();
  const tags: string[] = [];
  const ntags = Math.floor(random() * 3);
  for (let i = 0; i < ntags; i++)
    tags.push(random() < 0.9 ? (TAGS[Math.floor(random() * 50)] as string) : pick(random, TAGS));
  const user = random() < 0.95 ? pick(random, USERS) : pick(random, SERVICE_USERS);
  const img = image(random);
  if (r < 0.6) {
    return {
      EventID: 1,
      Image: img,
      OriginalFileName: img.slice(img.lastIndexOf('\\') + 1).toUpperCase(),
      CommandLine: commandLine(random, img),
      ParentImage: SYS32 + pick(random, PARENTS),
      User: user,
      tags,
    };
  }
  if (r < 0.85) {
    return {
      EventID: 3,
      Image: img,
      User: user,
      DestinationHostname: random() < 0.98 ? pick(random, HOSTS) : pick(random, EVIL_HOSTS),
      DestinationPort: pick(random, PORTS),
      tags,
    };
  }
  return {
    EventID: pick(random, [11, 13, 7, 22]),
    Image: img,
    User: user,
    TargetObject: `HKLM\\Software\\${pick(random, WORDS)}`,
    tags,
  };
}

// ---- rules ---------------------------------------------------------------------------------

const pdlString = (text: string): string => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const jsString = (text: string): string => JSON.stringify(text);
const pdlList = (values: readonly string[]): string => `[${values.map(pdlString).join(', ')}]`;
const jsAny = (field: string, values: readonly string[]): string =>
  `(${values.map((v) => `e.${field} === ${jsString(v)}`).join(' || ')})`;

/**
 * A Sigma-style rule. Every rule but one in a hundred has an equality or IN list on a selective
 * field (the image, the original file name, the user, the destination host, a tag) and adds
 * wildcards, contains, NOT and, for one rule in ten, a regular expression. One in a hundred has
 * only a wildcard and a contains (unless `unindexable` is false): no index can key it, every event
 * meets it.
 */
export function makeRule(random: () => number, k: number, unindexable = true): RuleSpec {
  const tool = (): string => pick(random, TOOLS);
  const flag = (): string => pick(random, FLAGS);
  const parent = pick(random, PARENTS);
  if (k % 100 === 24 && unindexable) {
    const t = tool();
    return {
      pdl: `Image = ${pdlString(`*\\${t}`)} OR CommandLine ?= ${pdlString(` ${t} `)}`,
      js: `e.Image.endsWith(${jsString(`\\${t}`)}) || (typeof e.CommandLine === 'string' && e.CommandLine.includes(${jsString(` ${t} `)}))`,
      primary: null,
    };
  }
  if (k % 10 === 9) {
    // one in ten: a regular expression on the command line of a named image
    const img = random() < 0.5 ? SYS32 + pick(random, LOLBINS) : pick(random, FOLDERS) + tool();
    const re = pick(random, REGEXES);
    const ignoreCase = re.pdl.startsWith('(?i)');
    return {
      pdl: `EventID = 1 AND Image = ${pdlString(img)} AND CommandLine ~= ${pdlString(re.pdl)}`,
      setup: `const re = new RegExp(${jsString(re.js)}, ${jsString(ignoreCase ? 'i' : '')});`,
      js: `e.EventID === 1 && e.Image === ${jsString(img)} && re.test(e.CommandLine)`,
      primary: { field: 'Image', values: [img] },
    };
  }
  switch (k % 6) {
    case 0: {
      // exact images (a LOLBin now and then) with a flag
      const images = [pick(random, FOLDERS) + tool(), pick(random, FOLDERS) + tool()];
      if (random() < 0.2) images.push(SYS32 + pick(random, LOLBINS));
      const f = flag();
      return {
        pdl: `EventID = 1 AND Image IN ${pdlList(images)} AND CommandLine ?= ${pdlString(f)}`,
        js: `e.EventID === 1 && ${jsAny('Image', images)} && e.CommandLine.includes(${jsString(f)})`,
        primary: { field: 'Image', values: images },
      };
    }
    case 1: {
      // original file name, started by a given parent (wildcard suffix)
      const name = tool().toUpperCase();
      return {
        pdl: `EventID = 1 AND OriginalFileName = ${pdlString(name)} AND ParentImage = ${pdlString(`*\\${parent}`)}`,
        js: `e.EventID === 1 && e.OriginalFileName === ${jsString(name)} && e.ParentImage.endsWith(${jsString(`\\${parent}`)})`,
        primary: { field: 'OriginalFileName', values: [name] },
      };
    }
    case 2: {
      // a LOLBin or a tool, with one of two flags, not started by services.exe
      const img = random() < 0.3 ? SYS32 + pick(random, LOLBINS) : pick(random, FOLDERS) + tool();
      const a = flag();
      const b = flag();
      return {
        pdl: `EventID = 1 AND Image = ${pdlString(img)} AND (CommandLine ?= ${pdlString(a)} OR CommandLine ?= ${pdlString(b)}) AND NOT ParentImage = "*\\\\services.exe"`,
        js: `e.EventID === 1 && e.Image === ${jsString(img)} && (e.CommandLine.includes(${jsString(a)}) || e.CommandLine.includes(${jsString(b)})) && !e.ParentImage.endsWith("\\\\services.exe")`,
        primary: { field: 'Image', values: [img] },
      };
    }
    case 3: {
      // network: connections to known C2 hosts on web ports
      const hosts = [pick(random, EVIL_HOSTS), pick(random, EVIL_HOSTS), pick(random, EVIL_HOSTS)];
      return {
        pdl: `EventID = 3 AND DestinationHostname IN ${pdlList(hosts)} AND DestinationPort IN [80, 443, 8080, 8443]`,
        js: `e.EventID === 3 && ${jsAny('DestinationHostname', hosts)} && (e.DestinationPort === 80 || e.DestinationPort === 443 || e.DestinationPort === 8080 || e.DestinationPort === 8443)`,
        primary: { field: 'DestinationHostname', values: hosts },
      };
    }
    case 4: {
      // a service account running something from a user-writable folder
      const user = pick(random, SERVICE_USERS);
      return {
        pdl: `User = ${pdlString(user)} AND (Image = "C:\\\\Users\\\\*" OR Image = "*\\\\Temp\\\\*")`,
        js: `e.User === ${jsString(user)} && (e.Image.startsWith("C:\\\\Users\\\\") || e.Image.includes("\\\\Temp\\\\"))`,
        primary: { field: 'User', values: [user] },
      };
    }
    default: {
      // tagged upstream, with a command-line wildcard
      const tags = [pick(random, TAGS), pick(random, TAGS)];
      const word = pick(random, WORDS);
      return {
        pdl: `tags IN ${pdlList(tags)} AND CommandLine = ${pdlString(`*${word}*`)}`,
        js: `(e.tags.includes(${jsString(tags[0] as string)}) || e.tags.includes(${jsString(tags[1] as string)})) && typeof e.CommandLine === 'string' && e.CommandLine.includes(${jsString(word)})`,
        primary: { field: 'tags', values: tags },
      };
    }
  }
}
