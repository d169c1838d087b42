/**
 * The user-facing messages used only in live/providers/, as functions of plain values (the convention of
 * core/messages/: wording in one place, tests compare with the same text).
 */
import { q } from '../../core/messages/text.js';

export const providersMsg = {
  unknownProvider: (id: string, known: readonly string[]) =>
    `provider ${q(id)} is not known (known: ${known.join(', ')})`,
  missingKey: (model: string, env: string) =>
    `model ${q(model)}: the environment variable ${env} that should hold the API key is not set`,
};
