/**
 * An account's own styles (POST /v1/styles): a built-in style and the changes made to it, kept as given so the
 * style follows its base's improvements; the engine's CustomStyle is made from it when a task is created.
 */
import type { StyleChanges } from '../../engine/index.ts';

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

/** A style of that name is already the account's. */
export class StyleNameTakenError extends Error {
  override name = 'StyleNameTakenError';
  constructor(readonly style: string) {
    super(`The account already has a style called "${style}".`);
  }
}
