export {
  compileUserRegex,
  parseReplacement,
  RegexBudget,
  UserRegex,
  MAX_PATTERN_LENGTH,
  MAX_PROGRAM_SIZE,
  MAX_UNITS_PER_CALL,
} from './engine.js';
export type { CompileOptions, CompileResult, UserMatch } from './engine.js';
export { translatePattern, type RegexDialect, type RegexFlags, type Translation } from './translate.js';
export {
  requiredLiterals,
  matchUniverse,
  universeHas,
  foldCase,
  fixedString,
  topLevelItems,
  type RequiredLiterals,
  type CharUniverse,
  type TopItem,
} from './literals.js';
