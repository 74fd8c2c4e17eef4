// asl-validator ships no type declarations; this is the part of its API the tests use.
declare module 'asl-validator' {
  interface AslValidatorResult {
    isValid: boolean;
    errors: { message?: string; code?: string; path?: string }[];
    errorsText(separator?: string): string;
  }
  function aslValidator(definition: unknown, opts?: { checkPaths?: boolean; checkArn?: boolean }): AslValidatorResult;
  export default aslValidator;
}
