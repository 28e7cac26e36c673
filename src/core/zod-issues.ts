/**
 * Where zod's first problems are and what they say, as `path: message` joined by `; `,
 * without the values (they may be untrusted or secret). `root` names a problem of the whole
 * value; without it such a problem is its message alone. Used wherever a zod failure at an
 * edge is told to a person.
 */
export function describeIssues(
  error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] },
  opts: { most?: number; root?: string } = {},
): string {
  const shown = error.issues.slice(0, opts.most ?? 1).map((issue) => {
    const where = issue.path.map(String).join('.');
    const at = where !== '' ? where : opts.root;
    return at === undefined ? issue.message : `${at}: ${issue.message}`;
  });
  return shown.length > 0 ? shown.join('; ') : 'it does not fit';
}
