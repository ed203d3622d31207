/** sns-validator ships no types: the one class the core uses. */
declare module 'sns-validator' {
  export default class MessageValidator {
    constructor(hostPattern?: RegExp, encoding?: string);
    validate(message: object, callback: (error: Error | null, message?: object) => void): void;
  }
}
