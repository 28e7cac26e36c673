import type { z } from 'zod';
import { formatJsonPath, type ProtocolProblem } from './protocol-error.js';

/** Turns zod's issues into our problems; the messages were already written by our error maps. */
export function problemsFromZod(error: z.ZodError): ProtocolProblem[] {
  return error.issues.map((issue) => ({
    path: formatJsonPath(issue.path),
    message: issue.message,
  }));
}
