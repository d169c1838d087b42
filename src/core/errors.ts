/**
 * An error the user can cause and fix (bad file, flag or design). The CLI prints its message
 * alone, without a stack, and exits non-zero. Programming errors stay ordinary Errors.
 */
export class UserError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
    this.name = 'UserError';
  }
}
