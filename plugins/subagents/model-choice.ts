/** The role's `model` among the configured providers: the shared choice (sdk/model-choice.ts). */
export { chooseModel, type ModelChoice } from '../../sdk/model-choice.js';
