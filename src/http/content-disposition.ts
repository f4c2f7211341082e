/** A file name safe in any header and any file system: lower-case ASCII words joined by dashes. */
export function slugify(title: string, maxLength = 80): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, maxLength)
    .replace(/^-+|-+$/g, '');
}

export function attachment(title: string | null, fallback: string, ext: string): string {
  const base = (title && slugify(title)) || fallback;
  return `attachment; filename="${base}.${ext}"`;
}
