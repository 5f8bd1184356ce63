/** The first place JSON text goes wrong: 1-based line and column, and what was expected there. */
export type JsonSyntaxError = { line: number; column: number; message: string };

class Fault {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/** Walks the text as RFC 8259 reads it and throws a Fault where it stops being JSON. */
function scan(text: string): void {
  let at = 0;
  const found = () => (at >= text.length ? "the end of the file" : JSON.stringify(text[at]));
  const expected = (what: string): never => {
    throw new Fault(at, `expected ${what}, found ${found()}`);
  };
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at]!)) at++;
  };
  const string = () => {
    at++;
    while (at < text.length && text[at] !== '"') {
      if (text[at] === "\\") {
        ESCAPE.lastIndex = at;
        if (!ESCAPE.test(text)) throw new Fault(at, "a string has an invalid escape");
        at = ESCAPE.lastIndex;
      } else if (text[at]! < " ") {
        throw new Fault(at, "a string holds a control character or line break");
      } else {
        at++;
      }
    }
    if (at >= text.length) expected('a closing "');
    at++;
  };
  const items = (close: string, item: () => void) => {
    at++;
    space();
    if (text[at] === close) return void at++;
    for (;;) {
      item();
      space();
      if (text[at] === close) return void at++;
      if (text[at] !== ",") expected(`"," or "${close}"`);
      at++;
      space();
    }
  };
  const value = (): void => {
    space();
    const first = text[at];
    if (first === "{") return items("}", member);
    if (first === "[") return items("]", value);
    if (first === '"') return string();
    const word = ["true", "false", "null"].find((literal) => text.startsWith(literal, at));
    if (word) return void (at += word.length);
    NUMBER.lastIndex = at;
    if (!NUMBER.test(text)) expected("a value");
    at = NUMBER.lastIndex;
  };
  const member = () => {
    if (text[at] !== '"') expected("a property name in double quotes");
    string();
    space();
    if (text[at] !== ":") expected('":"');
    at++;
    value();
  };
  value();
  space();
  if (at < text.length) expected("the end of the file");
}

/** Where `text` is not JSON, or undefined when it is. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  try {
    scan(text);
    return undefined;
  } catch (error) {
    // Nesting deeper than the stack: JSON.parse, which goes deeper, refused the text first.
    if (error instanceof RangeError) return { line: 1, column: 1, message: "nested too deeply to read" };
    if (!(error instanceof Fault)) throw error;
    const before = text.slice(0, error.offset).split("\n");
    return { line: before.length, column: before.at(-1)!.length + 1, message: error.message };
  }
}
