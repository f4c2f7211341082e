import { html, type Html } from '../html.ts';

/** Errors keyed by field name; '' is the form as a whole. */
export type FieldErrors = Partial<Record<string, string>>;

export const csrfField = (token: string): Html => html`<input type="hidden" name="_csrf" value="${token}">`;

/** The sentence for an error next to its field, linked to the input for screen readers. */
export function fieldError(errors: FieldErrors, name: string): Html {
  const message = errors[name];
  return message ? html`<p class="field-error" id="${name}-error" role="alert">${message}</p>` : html``;
}

export function formError(errors: FieldErrors): Html {
  const message = errors[''];
  return message ? html`<div class="alert alert-error" role="alert">${message}</div>` : html``;
}

export function describedBy(errors: FieldErrors, name: string): Html {
  return errors[name] ? html` aria-invalid="true" aria-describedby="${name}-error"` : html``;
}
