/**
 * The arrangement: which patch plays each role. Starts from the preset, lets a blended genre lend its
 * harmony instruments, then applies scene wishes (soft), instrument words (firm), "only" words
 * ("solo piano") and exclusions ("no drums", "without piano"). Excluded roles never survive.
 */
import type { InstrumentEntry } from '../lexicon/index.ts';
import type { InstrumentChoice, Patch, Preset, Role, TraceEntry } from '../types.ts';

export const ROLE_ORDER: readonly Role[] = ['drums', 'bass', 'chords', 'pad', 'lead', 'arp', 'texture', 'vocal'];
/** Roles a blended genre lends: harmony and colour come from B, groove from A (section 2.2). */
const BLEND_ROLES: readonly Role[] = ['chords', 'pad', 'lead'];
/** Words for these roles exclude the role itself ("no drums"); other words exclude a patch ("no piano"). */
const RHYTHM_ROLES: readonly Role[] = ['drums', 'bass'];

export interface InstrumentWord {
  phrase: string;
  entry: InstrumentEntry;
  negated: boolean;
  only: boolean;
}

export interface ArrangementInput {
  preset: Preset;
  blend: Preset | null;
  /** Soft wishes from scene/production words, in prompt order. */
  wishes: { phrase: string; role: Role; patch: Patch }[];
  words: InstrumentWord[];
  /** Roles excluded outright ("drumless", "no vocals"). */
  excludedRoles: { phrase: string; role: Role }[];
  keepVocal: boolean;
}

export interface Arrangement {
  instruments: InstrumentChoice[];
  excluded: Role[];
  trace: TraceEntry[];
}

export function arrange(input: ArrangementInput): Arrangement {
  const trace: TraceEntry[] = [];
  const roles = new Map<Role, Patch>(Object.entries(input.preset.instruments) as [Role, Patch][]);
  const locked = new Set<Role>();
  const excluded = new Set<Role>();
  const holds = (patch: Patch): Role | undefined => [...roles].find(([, p]) => p === patch)?.[0];

  if (input.blend) {
    for (const role of BLEND_ROLES) {
      const patch = input.blend.instruments[role];
      if (patch && roles.get(role) !== patch) {
        roles.set(role, patch);
        trace.push({ source: input.blend.name, effect: `${role} = ${patch} (from the blended genre)` });
      }
    }
  }

  for (const wish of input.wishes) {
    if (holds(wish.patch) !== undefined) continue;
    roles.set(wish.role, wish.patch);
    trace.push({ source: wish.phrase, effect: `${wish.role} = ${wish.patch}` });
  }

  const onlyWords = input.words.filter((w) => w.only);
  for (const word of input.words.filter((w) => !w.negated && !w.only)) {
    const { entry } = word;
    const note = entry.note ? ` (${entry.note})` : '';
    if (entry.generic) {
      const role = entry.roles[0]!;
      if (!roles.has(role)) {
        roles.set(role, entry.patch);
        trace.push({ source: word.phrase, effect: `${role} = ${entry.patch}${note}` });
      } else {
        trace.push({ source: word.phrase, effect: `${role} kept as ${roles.get(role)} (the style's own)` });
      }
      locked.add(role);
      continue;
    }
    const present = holds(entry.patch);
    if (present !== undefined) {
      locked.add(present);
      trace.push({ source: word.phrase, effect: `${entry.patch} already plays ${present}${note}` });
      continue;
    }
    // An empty preferred role first ("strings" in lofi becomes the pad, keeping the Rhodes), then any unlocked one.
    const role = entry.roles.find((r) => !roles.has(r) && !locked.has(r)) ?? entry.roles.find((r) => !locked.has(r)) ?? entry.roles[0]!;
    roles.set(role, entry.patch);
    locked.add(role);
    trace.push({ source: word.phrase, effect: `${role} = ${entry.patch}${note}` });
  }

  if (onlyWords.length > 0) {
    const kept = new Map<Role, Patch>();
    // Each named instrument first takes its best free role, then leftover roles are filled in order,
    // so "just piano and cello" keeps both (piano chords, cello lead) rather than piano twice.
    for (const word of onlyWords) {
      const role = word.entry.roles.find((r) => !kept.has(r));
      if (role) kept.set(role, word.entry.patch);
    }
    for (const word of onlyWords) {
      for (const role of word.entry.roles) if (!kept.has(role)) kept.set(role, word.entry.patch);
    }
    for (const role of ROLE_ORDER) {
      if (!kept.has(role) && (role !== 'vocal' || !input.keepVocal)) excluded.add(role);
    }
    roles.clear();
    for (const [role, patch] of kept) roles.set(role, patch);
    trace.push({ source: onlyWords.map((w) => w.phrase).join(', '), effect: `only ${[...new Set(onlyWords.map((w) => w.entry.patch))].join(' and ')}: other roles excluded` });
  }

  for (const word of input.words.filter((w) => w.negated)) {
    const rhythm = word.entry.roles.length === 1 && RHYTHM_ROLES.includes(word.entry.roles[0]!);
    const hit = rhythm ? [word.entry.roles[0]!] : [...roles].filter(([, p]) => p === word.entry.patch).map(([r]) => r);
    for (const role of hit) excluded.add(role);
    trace.push({ source: word.phrase, effect: hit.length > 0 ? `excluded ${hit.join(', ')}` : `${word.entry.patch} was not in the arrangement` });
  }
  for (const { phrase, role } of input.excludedRoles) {
    excluded.add(role);
    trace.push({ source: phrase, effect: `excluded ${role}` });
  }
  for (const role of excluded) roles.delete(role);

  // Something must still make pitched sound when every melodic role was excluded ("no piano" in a piano style).
  if (![...roles.keys()].some((r) => r !== 'drums' && r !== 'texture')) {
    const fallbackRole: Role = excluded.has('pad') ? (excluded.has('chords') ? 'lead' : 'chords') : 'pad';
    if (!excluded.has(fallbackRole)) {
      roles.set(fallbackRole, 'warmPad');
      trace.push({ source: 'default', effect: `${fallbackRole} = warmPad (nothing else left to play the harmony)` });
    }
  }

  const instruments = ROLE_ORDER.filter((r) => roles.has(r)).map((role) => ({ role, instrument: roles.get(role)! }));
  return { instruments, excluded: ROLE_ORDER.filter((r) => excluded.has(r)), trace };
}
