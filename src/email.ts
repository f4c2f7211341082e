/**
 * What the CLI and the dashboard accept as an email address: something@something with no spaces, at most
 * 254 characters. A typo catcher, not RFC 5322: addresses are never mailed, and a self-hosted operator may
 * well use one like admin@localhost.
 */
export const EMAIL_MAX_CHARS = 254;

export const isEmailAddress = (text: string): boolean =>
  text.length <= EMAIL_MAX_CHARS && /^[^\s@]+@[^\s@]+$/.test(text);

/** Emails are compared and kept without surrounding spaces and in lower case. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
