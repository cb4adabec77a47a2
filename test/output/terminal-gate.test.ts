import { Writable } from 'node:stream';
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { ownOutput } from '../../src/output/own-codes.js';
import { bold, ERASE_LINE, red, unstyled } from '../../src/output/style.js';
import { gate, terminalText, visible } from '../../src/output/terminal-gate.js';
import { wrapText } from '../../src/output/wrap-text.js';

// The one gate for text from outside (src/output/terminal-gate.ts): what a terminal would
// act on made visible as its JSON escape, merch's own codes (src/output/style.ts) written as
// they are. The commands' end-to-end side is test/output/text-from-outside.test.ts.

const ESC = '\u001b';

/** A stream that keeps what it is written, as text. */
function sink(): { stream: Writable; text: () => string; ended: () => boolean } {
  let text = '';
  let ended = false;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
    final(done) {
      ended = true;
      done();
    },
  });
  return { stream, text: () => text, ended: () => ended };
}

/** Strings of the characters that matter here: Latin-1 (C0, C1), the separators and bidi controls, lone surrogates. */
const text = fc.string({
  unit: fc.oneof(fc.integer({ min: 0, max: 0xff }), fc.integer({ min: 0x2020, max: 0x2070 }), fc.integer({ min: 0xd800, max: 0xdfff })).map((code) => String.fromCharCode(code)),
});

describe('visible', () => {
  it('writes each character a terminal acts on as its JSON escape', () => {
    expect(visible(`${ESC}]52;c;aGk=\u0007`)).toBe('\\u001b]52;c;aGk=\\u0007');
    expect(visible(`${ESC}[2J`)).toBe('\\u001b[2J');
    expect(visible('\u009b31m \u202eevil \u2066x\u2069 \u0085 \u007f \u0000 \u2028')).toBe('\\u009b31m \\u202eevil \\u2066x\\u2069 \\u0085 \\u007f \\u0000 \\u2028');
    expect(visible('a\rb')).toBe('a\\u000db'); // a lone carriage return would overwrite the line
  });

  it('keeps tabs, line feeds, CRLF and all other text as it is (and is idempotent)', () => {
    const text = 'Ünïcödé 日本語 🧢\ta\nb\r\nc \\u001b';
    expect(visible(text)).toBe(text);
    const hostile = `${ESC}[31mred\u009b\u202e\r`;
    expect(visible(visible(hostile))).toBe(visible(hostile));
  });

  it('keeps JSON valid and equal after parsing, pretty or not, whatever the string', () => {
    const all = Array.from({ length: 0xa0 }, (_, code) => String.fromCharCode(code)).join('') + '\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';
    for (const value of [all, { [all]: [all, 1, null] }]) {
      for (const json of [JSON.stringify(value), JSON.stringify(value, null, 2)]) {
        const shown = terminalText(json);
        expect(shown).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
        expect(JSON.parse(shown)).toEqual(value);
      }
    }
    fc.assert(
      fc.property(fc.dictionary(text, text, { maxKeys: 4 }), (value) => {
        expect(JSON.parse(terminalText(JSON.stringify(value, null, 2)))).toEqual(value);
      }),
      { numRuns: 200, seed: 20_261_124 },
    );
  });
});

describe("merch's own codes", () => {
  it('pass the gate as the sequences they stand for; what they wrap is still made visible', () => {
    expect(terminalText(bold('ID', true))).toBe(`${ESC}[1mID${ESC}[22m`);
    expect(terminalText(red('error:', true))).toBe(`${ESC}[31merror:${ESC}[39m`);
    expect(terminalText(`${ERASE_LINE}fetched 3`)).toBe(`\r${ESC}[2Kfetched 3`);
    expect(terminalText(bold(`x${ESC}[2J`, true))).toBe(`${ESC}[1mx\\u001b[2J${ESC}[22m`);
  });

  it('are no columns: a styled text measures as its text', () => {
    expect(unstyled(bold('ID', true))).toBe('ID');
    expect(stringWidth(`${bold('ID', true)} ${red('x', true)}`)).toBe(4);
    expect(wrapText(`${red('error:', true)} ${'a'.repeat(72)}`, 80)).not.toContain('\n');
  });

  it('cannot be forged from outside: text that looks like one is made visible or left inert', () => {
    // The key is drawn at start-up: a guess at the mark (tag characters, as the codes are made) stays text.
    const tag = (text: string) => Array.from(text, (c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    const forged = `${tag('abcdefghijkl')}${tag(`${ESC}[2J`)}\u{e007f}`;
    expect(terminalText(forged)).not.toContain(ESC);
    // An own code's characters copied out of a string and sent back are the sequence's text, not a key.
    expect(terminalText(`${ESC}[1m`)).toBe('\\u001b[1m');
  });
});

describe('gate', () => {
  it("makes visible what is written, as strings or bytes, a character split between writes kept whole; merch's codes pass", () => {
    const out = sink();
    const gated = gate(out.stream);
    gated.write(`${bold('Name', true)}\n`);
    gated.write(Buffer.from(`Evil ${ESC}]8;;https://evil.example/${ESC}\\link\u0007 `));
    const e = Buffer.from('é\u202e');
    gated.write(e.subarray(0, 1));
    gated.write(e.subarray(1));
    gated.end(`\u009b2J\n`);
    expect(out.text()).toBe(`${ESC}[1mName${ESC}[22m\nEvil \\u001b]8;;https://evil.example/\\u001b\\link\\u0007 é\\u202e\\u009b2J\n`);
    expect(out.ended()).toBe(true);
  });

  it('keeps the stream as it is otherwise (its flags, drain, events), and gates once', async () => {
    const out = sink();
    Object.assign(out.stream, { isTTY: true, columns: 99 });
    const gated = gate(out.stream);
    expect((gated as unknown as { columns: number }).columns).toBe(99);
    expect(gate(gated)).toBe(gated);
    gate(gated).write(bold('x', true));
    await new Promise<void>((resolve) => gated.write('', () => resolve()));
    expect(out.text()).toBe(`${ESC}[1mx${ESC}[22m`);
  });

  it("@inquirer/prompts' own output passes (ownOutput), through the gate", () => {
    const out = sink();
    const prompt = ownOutput(gate(out.stream));
    prompt.write(`${ESC}[?25l${ESC}[36m?${ESC}[39m Pick one\r\n`);
    expect(out.text()).toBe(`${ESC}[?25l${ESC}[36m?${ESC}[39m Pick one\r\n`);
  });
});
