/**
 * An account's own styles (POST /v1/styles, Enterprise's "custom models"): a built-in style and the changes made to
 * it, kept as given so the style follows its base's improvements. The engine's CustomStyle is made from the record
 * when a task is created, and the task keeps it (Generation.custom_style), so the task plays the style as it was.
 */
import {
  InvalidStyleError,
  makeCustomStyle,
  type CustomStyle,
  type StyleChanges,
  type StyleInfo,
} from '../../engine/index.ts';
import type { Repository } from '../store/repository.ts';
import { ResourceNotFoundError, ValidationError } from './errors.ts';
import type { Account } from './model.ts';
import { checkCustomStylesPlan } from './plan-gate.ts';

export interface CustomStyleRecord {
  account_id: string;
  /** Unique within the account, never a built-in style's name: lower-case letters, digits and '-'. */
  name: string;
  /** The built-in style it was made from. */
  base: string;
  description: string;
  /** What it changes in the base, as POST /v1/styles was given them (less name, base and description). */
  changes: StyleChanges;
  created_at: string;
}

/** A style of that name is already the account's, or is a built-in one. */
export class StyleNameTakenError extends Error {
  override name = 'StyleNameTakenError';
  constructor(readonly style: string) {
    super(`There is already a style called "${style}". Choose another name, or DELETE /v1/styles/${style} first.`);
  }
}

/** Styles one account may have. */
export const MAX_STYLES = 50;

/** What POST /v1/styles asks for, once its fields are checked. */
export interface NewStyle {
  name: string;
  /** A built-in style, or one of the account's own (whose base and changes the new one starts from). */
  from: string;
  description?: string | undefined;
  changes: StyleChanges;
}

/** The changes of `later` over those of `earlier`; instruments merge role by role. */
function mergeChanges(earlier: StyleChanges, later: StyleChanges): StyleChanges {
  const merged: StyleChanges = { ...earlier, ...later };
  if (earlier.instruments || later.instruments) merged.instruments = { ...earlier.instruments, ...later.instruments };
  if (later.key !== undefined && later.modes === undefined) delete merged.modes;
  if (later.modes !== undefined && later.key === undefined) delete merged.key;
  return merged;
}

/** The engine's CustomStyle of a record; a record its base no longer accepts is a 400 naming the style. */
export function playableStyle(
  record: Pick<CustomStyleRecord, 'name' | 'base' | 'description' | 'changes'>,
): CustomStyle {
  try {
    return makeCustomStyle(record.name, record.base, { ...record.changes, description: record.description });
  } catch (error) {
    if (error instanceof InvalidStyleError) throw new ValidationError(error.field, error.message, 'invalid_value');
    throw error;
  }
}

export class CustomStyles {
  constructor(
    private readonly repository: Repository,
    private readonly builtIn: () => StyleInfo[],
    private readonly now: () => Date,
  ) {}

  list(account: Account): Promise<CustomStyleRecord[]> {
    return this.repository.styles.list(account.id);
  }

  async get(account: Account, name: string): Promise<CustomStyleRecord> {
    const style = await this.repository.styles.get(account.id, name.toLowerCase());
    if (!style) throw notFound(name, this.#isBuiltIn(name));
    return style;
  }

  async create(account: Account, input: NewStyle): Promise<CustomStyleRecord> {
    checkCustomStylesPlan(account);
    if (this.#isBuiltIn(input.name)) throw new StyleNameTakenError(input.name);
    const own = this.#isBuiltIn(input.from) ? undefined : await this.repository.styles.get(account.id, input.from);
    if (!this.#isBuiltIn(input.from) && !own)
      throw new ValidationError(
        'from',
        `There is no style called "${input.from}" to start from: use a name from GET /v1/styles.`,
        'unknown_style',
      );
    const record: CustomStyleRecord = {
      account_id: account.id,
      name: input.name,
      base: own ? own.base : input.from,
      description:
        input.description ??
        own?.description ??
        `${this.builtIn().find((style) => style.name === input.from)?.description ?? input.from} (changed)`,
      changes: own ? mergeChanges(own.changes, input.changes) : input.changes,
      created_at: this.now().toISOString(),
    };
    playableStyle(record);
    if ((await this.repository.styles.list(account.id)).length >= MAX_STYLES)
      throw new ValidationError(
        'name',
        `An account can have at most ${MAX_STYLES} styles. Delete one first (DELETE /v1/styles/{name}).`,
        'too_many_styles',
      );
    await this.repository.styles.add(record);
    return record;
  }

  /** Deleting needs no plan: an account that lost custom styles can still tidy them away. */
  async delete(account: Account, name: string): Promise<void> {
    if (!(await this.repository.styles.delete(account.id, name.toLowerCase())))
      throw notFound(name, this.#isBuiltIn(name));
  }

  /**
   * The style a generate request named, when it is one of the account's own: its engine CustomStyle, after the
   * plan check. Undefined for a built-in style or none.
   */
  async forRequest(account: Account, style: string | null): Promise<CustomStyle | undefined> {
    if (style === null || this.#isBuiltIn(style)) return undefined;
    const record = await this.repository.styles.get(account.id, style);
    if (!record) return undefined;
    checkCustomStylesPlan(account, 'style');
    return playableStyle(record);
  }

  /** Every name `style` accepts for the account: the built-in ones, then its own. */
  async names(account: Account): Promise<StyleInfo[]> {
    const own = await this.repository.styles.list(account.id);
    return [...this.builtIn(), ...own.map(({ name, description }) => ({ name, description }))];
  }

  #isBuiltIn(name: string): boolean {
    return this.builtIn().some((style) => style.name === name.toLowerCase());
  }
}

function notFound(name: string, builtIn: boolean): ResourceNotFoundError {
  return new ResourceNotFoundError(
    'style_not_found',
    builtIn
      ? `"${name}" is a built-in style: it cannot be deleted or changed. Make a style of your own from it with POST /v1/styles.`
      : `You have no style called "${name}". GET /v1/styles lists yours.`,
    'name',
  );
}
