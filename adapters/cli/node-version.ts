/** The oldest Node.js major the package supports: package.json `engines` says the same (a test checks). */
export const OLDEST_NODE = 22;

/** Why this Node.js cannot run the command, or undefined when it can: only the supported majors are tested (docs/decisions.md). */
export function nodeVersionProblem(version: string): string | undefined {
  const major = Number(version.split('.')[0]);
  if (Number.isInteger(major) && major >= OLDEST_NODE) return undefined;
  return `needs Node.js ${OLDEST_NODE} or later; this is Node.js ${version}. Install Node.js ${OLDEST_NODE} or 24 (https://nodejs.org) and run it again.`;
}
