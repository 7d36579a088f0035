import * as z from 'zod/mini';

// The env switches' building blocks, shared by the platform's schema (config.schema.ts) and the modules' fragments
// (`modules/<m>/<m>.config.ts`). Values arrive as strings (process.env, .env files, secrets). Written with zod/mini:
// the functions entry validates every switch at every cold start, and mini's tree-shaken ~20 KB load in ~1 ms where
// the classic API takes ~9 ms (the build refuses zod's classic API in dist/index.js).

const TRUE_WORDS = ['true', '1', 'yes', 'on'];
const FALSE_WORDS = ['false', '0', 'no', 'off'];

export function parseBooleanWord(value: string | undefined): boolean | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  return undefined;
}

export const maybeString = () => z.optional(z.string());
/** Adds an issue to a transform's context (the message is shown after the switch's name). */
export const fail = (ctx: { issues: unknown[] }, input: unknown, message: string) => {
  ctx.issues.push({ code: 'custom', message, input });
  return z.NEVER;
};
export const isUrl = z.refine<string>((v) => URL.canParse(v), { message: 'must be a URL' });
export const isUrlIfSet = z.refine<string | undefined>((v) => v === undefined || URL.canParse(v), { message: 'must be a URL' });
const withoutTrailingSlash = z.transform((v: string | undefined) => v?.replace(/\/+$/, ''));

/** `true`/`false` in any of the usual words; unset or empty: the fallback. */
export const booleanSwitch = (fallback: boolean) =>
  z.pipe(
    maybeString().check(
      z.refine((v) => v === undefined || v.trim() === '' || parseBooleanWord(v) !== undefined, {
        message: `must be one of ${[...TRUE_WORDS, ...FALSE_WORDS].join(', ')}`,
      }),
    ),
    z.transform((v: string | undefined) => parseBooleanWord(v) ?? fallback),
  );

/** Comma-separated, trimmed, empty items dropped (unset: empty). */
export const commaList = z.pipe(
  maybeString(),
  z.transform((v: string | undefined) =>
    (v ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  ),
);

/** Trimmed text; unset or blank: undefined. */
export const optionalText = z.pipe(
  maybeString(),
  z.transform((v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v.trim())),
);

/** A URL without its trailing slash, or unset. */
export const optionalUrl = () => z.pipe(optionalText.check(isUrlIfSet), withoutTrailingSlash);

/** An integer from min (1 unless given) to max; unset or blank: the fallback. */
export const positiveInt = (fallback: number, max: number, min = 1) =>
  z.pipe(
    maybeString(),
    z.transform((v: string | undefined, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) return fail(ctx, v, `must be an integer from ${min} to ${max}`);
      return n;
    }),
  );

/** A URL without its trailing slash; unset or blank: the fallback. */
export const urlWithDefault = (fallback: string) =>
  z
    .pipe(
      maybeString(),
      z.transform((v: string | undefined) => (v && v.trim() ? v.trim().replace(/\/+$/, '') : fallback)),
    )
    .check(isUrl);

/** A URL as given; unset or blank: the fallback. */
export const urlOrDefault = (fallback: string) =>
  z
    .pipe(
      maybeString(),
      z.transform((v: string | undefined) => (v && v.trim() ? v.trim() : fallback)),
    )
    .check(isUrl);

/** One of the values; unset: the fallback. */
export const choice = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) => z._default(z.enum(values), fallback);

export const requiredSecret = z.string({ error: 'is required' }).check(z.minLength(1, { message: 'is required' }));

/** ISO 3166 country codes (VN, US…), upper-cased; unset: the fallback. */
export const countryList = (fallback: string[]) =>
  z.pipe(
    commaList,
    z.transform((list: string[], ctx) => {
      const codes = list.map((code) => code.toUpperCase());
      if (codes.length === 0) return fallback;
      const bad = codes.filter((code) => !/^[A-Z]{2}$/.test(code));
      return bad.length > 0 ? fail(ctx, list.join(','), `"${bad.join('", "')}" is not a two-letter country code such as VN`) : codes;
    }),
  );

/** Email addresses, lower-cased. */
export const emailList = z
  .pipe(
    commaList,
    z.transform((list: string[]) => list.map((e) => e.toLowerCase())),
  )
  .check(z.refine((list) => list.every((e) => z.email().safeParse(e).success), { message: 'must be a comma-separated list of emails' }));

// --- fragments ---------------------------------------------------------------------------------------------------

export type Env = Record<string, string | undefined>;

/** One switch: how its value is read, and what it does (docs/configuration.md shows the text). */
export interface Switch {
  schema: z.ZodMiniType;
  /** What the switch does, in the docs' words (markdown). */
  effect: string;
  /** Never shown in full (health diagnostics, logs); may be bound from Secret Manager (FUNCTIONS_SECRETS). */
  secret?: boolean;
}
export type Switches = Record<string, Switch>;
export type SwitchValues<S extends Switches> = { [K in keyof S]: z.output<S[K]['schema']> };
/** The parsed values of a fragment's switches (what `config.<KEY>` gives). */
export type ConfigOf<F extends SwitchFragment> = SwitchValues<F['switches']>;

/** A module's switches, named in its definition (`config`) and validated with the platform's at every cold start. */
export interface SwitchFragment<S extends Switches = Switches> {
  readonly switches: S;
  /** Rules across its switches on the parsed values, in every environment: the problems, each naming its key. */
  check?(values: SwitchValues<S>): string[];
  /** Its production rules on the raw values (production or a deployed instance): every violation, each naming its key. */
  production?(env: Env): string[];
}

/**
 * The switches a module declares in its folder (`modules/<m>/<m>.config.ts`), typed for every reader of the
 * configuration by the declaration below it:
 *
 *   export const ordersSwitches = defineSwitches({ ORDER_ACCEPT_WITHIN_SEC: { schema: positiveInt(900, 3_600, 60), effect: '…' } });
 *   declare module '../../platform/core/config/switches' {
 *     interface ModuleConfig extends ConfigOf<typeof ordersSwitches> {}
 *   }
 */
export function defineSwitches<S extends Switches>(switches: S, rules: Omit<SwitchFragment<S>, 'switches'> = {}): SwitchFragment<S> {
  for (const [key, spec] of Object.entries(switches)) {
    if (!/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(key)) throw new Error(`config switch ${key}: upper case words joined by _`);
    if (spec.effect.trim() === '') throw new Error(`config switch ${key}: say what it does (effect)`);
  }
  return Object.freeze({ ...rules, switches: Object.freeze({ ...switches }) });
}

/**
 * The values of every module's switches, merged into AppConfig: each `<m>.config.ts` extends this interface with its
 * own (two modules declaring one key with different types do not compile; the same key twice refuses the boot).
 */
export interface ModuleConfig {}
