/**
 * The DATA section of a STEP file (ISO 10303-21) as entities: `#n = TYPE(args);` and complex
 * instances `#n = (A(args) B(args));`, each as its parts. Nothing is interpreted: references stay
 * numbers, enumerations names, typed values (`LENGTH_MEASURE(3.5)`) type and arguments.
 *
 * PMI needs the file's own entities (OCCT's XDE in this build drops fit classes and some tolerance
 * values), and reading them as text needs no OCCT at all.
 */

export interface StepRef {
  ref: number;
}
export interface StepEnum {
  enum: string;
}
export interface StepTyped {
  type: string;
  args: StepValue[];
}
/** `$` and `*` are null; strings are strings, numbers numbers */
export type StepValue = number | string | StepRef | StepEnum | StepTyped | StepValue[] | null;

export interface StepPart {
  type: string;
  args: StepValue[];
}

export interface StepEntity {
  id: number;
  /** one part for a simple instance, several (in file order) for a complex one */
  parts: StepPart[];
}

export type StepModel = Map<number, StepEntity>;

export class Part21Error extends Error {}

/** Every entity of the file's DATA sections, by number. */
export function parsePart21(text: string): StepModel {
  const model: StepModel = new Map();
  const start = text.indexOf("DATA;");
  if (start < 0) throw new Part21Error("no DATA section");
  for (const statement of statements(text, start + 5)) {
    const match = /^(?:\s|\/\*[\s\S]*?\*\/)*#(\d+)\s*=\s*/.exec(statement);
    if (!match) continue; // ENDSEC, a second section's header
    const id = Number(match[1]);
    const reader = new Reader(statement, match[0].length);
    model.set(id, { id, parts: reader.instance() });
  }
  return model;
}

/** The statements from `from` on, split at semicolons outside strings and comments. */
function* statements(text: string, from: number): Generator<string> {
  let begin = from;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "'") {
      // '' inside a string is a quote
      for (i++; i < text.length; i++) {
        if (text[i] === "'") {
          if (text[i + 1] === "'") i++;
          else break;
        }
      }
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === ";") {
      yield text.slice(begin, i);
      begin = i + 1;
    }
  }
}

const KEYWORD = /[A-Za-z_][A-Za-z0-9_]*/y;
const REFERENCE = /#(\d+)/y;
const NUMBER = /[+-]?\d+(\.\d*)?([eE][+-]?\d+)?/y;
const SPACE = /\s*/y;

class Reader {
  constructor(
    private readonly s: string,
    private i: number,
  ) {}

  instance(): StepPart[] {
    this.space();
    if (this.s[this.i] !== "(") return [this.part()];
    this.i++;
    const parts: StepPart[] = [];
    for (this.space(); this.s[this.i] !== ")"; this.space()) {
      if (this.i >= this.s.length) throw new Part21Error("unterminated complex instance");
      parts.push(this.part());
    }
    return parts;
  }

  private part(): StepPart {
    const type = this.keyword();
    this.space();
    return { type, args: this.list() };
  }

  private keyword(): string {
    const match = this.sticky(KEYWORD);
    if (!match) throw new Part21Error(`keyword expected at ${this.s.slice(this.i, this.i + 30)}`);
    this.i += match[0].length;
    return match[0].toUpperCase();
  }

  private list(): StepValue[] {
    if (this.s[this.i] !== "(") throw new Part21Error(`( expected at ${this.s.slice(this.i, this.i + 30)}`);
    this.i++;
    const values: StepValue[] = [];
    this.space();
    if (this.s[this.i] === ")") {
      this.i++;
      return values;
    }
    for (;;) {
      values.push(this.value());
      this.space();
      const c = this.s[this.i++];
      if (c === ")") return values;
      if (c !== ",") throw new Part21Error(`, or ) expected at ${this.s.slice(this.i - 1, this.i + 30)}`);
    }
  }

  private value(): StepValue {
    this.space();
    const c = this.s[this.i];
    if (c === "#") {
      const match = this.sticky(REFERENCE);
      if (!match) throw new Part21Error("reference expected");
      this.i += match[0].length;
      return { ref: Number(match[1]) };
    }
    if (c === "'") return this.string();
    if (c === "(") return this.list();
    if (c === "$" || c === "*") {
      this.i++;
      return null;
    }
    if (c === ".") {
      const end = this.s.indexOf(".", this.i + 1);
      const name = this.s.slice(this.i + 1, end);
      this.i = end + 1;
      return { enum: name };
    }
    if (c === '"') {
      const end = this.s.indexOf('"', this.i + 1);
      const bits = this.s.slice(this.i + 1, end);
      this.i = end + 1;
      return bits;
    }
    const number = this.sticky(NUMBER);
    if (number) {
      this.i += number[0].length;
      return Number(number[0]);
    }
    const type = this.keyword();
    this.space();
    return { type, args: this.list() };
  }

  private string(): string {
    let out = "";
    for (this.i++; this.i < this.s.length; this.i++) {
      const c = this.s[this.i];
      if (c === "'") {
        if (this.s[this.i + 1] === "'") {
          out += "'";
          this.i++;
        } else {
          this.i++;
          return out;
        }
      } else {
        out += c;
      }
    }
    throw new Part21Error("unterminated string");
  }

  private space(): void {
    SPACE.lastIndex = this.i;
    SPACE.exec(this.s);
    this.i = SPACE.lastIndex;
  }

  /** `pattern` (sticky) matched at the current position, without copying the text */
  private sticky(pattern: RegExp): RegExpExecArray | null {
    pattern.lastIndex = this.i;
    return pattern.exec(this.s);
  }
}

/** The arguments of `entity`'s part of type `type`, if it has one. */
export function partOf(entity: StepEntity | undefined, type: string): StepValue[] | undefined {
  return entity?.parts.find((part) => part.type === type)?.args;
}

export function isRef(value: StepValue | undefined): value is StepRef {
  return typeof value === "object" && value !== null && "ref" in value;
}

export function refOf(value: StepValue | undefined): number | null {
  return isRef(value) ? value.ref : null;
}

export function refsOf(value: StepValue | undefined): number[] {
  if (Array.isArray(value)) return value.flatMap((item) => refsOf(item));
  const ref = refOf(value);
  return ref === null ? [] : [ref];
}

export function enumOf(value: StepValue | undefined): string | null {
  return typeof value === "object" && value !== null && "enum" in value ? value.enum : null;
}
