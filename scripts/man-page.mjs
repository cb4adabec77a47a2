// merch's manual page, dist/merch.1, written by the build (esbuild.config.mjs) from the
// commands' own declarations, as gh's gen-docs: the built program is walked as commander
// renders its help (every command but hidden ones, their arguments, flags and examples, the
// global flags once), and the help topics `merch help environment` and `merch help
// exit-codes` become ENVIRONMENT and EXIT STATUS. Nothing here repeats a flag or a
// description: FILES and SEE ALSO are the only text written here.
//
// One page, merch(1), where gh writes a page per command: `man merch` is the page people
// open, and a search (/--batch-size) finds any flag of any command in it.
//
// The date of .TH is the day (UTC) of SOURCE_DATE_EPOCH when it is set (Debian's packaging
// sets it from debian/changelog), else empty: the page then dates itself by its version
// alone ("merch 0.1.0" in its footer). Neither the build's clock nor git is read, so two
// builds of one version give the same bytes, from a clone or from a tarball.
import { pipeEnvironment, printedBy } from './built-cli.mjs';

/** merch.1 for the built CLI (dist/main.js: its `main` and `buildProgram`) of `version`. */
export async function manPage(cli, { version, date }) {
  const program = cli.buildProgram(pipeEnvironment());
  const help = program.createHelp();
  const environment = await printedBy(cli.main, ['help', 'environment']);
  const exitCodes = await printedBy(cli.main, ['help', 'exit-codes']);
  const lines = [
    '.\\" merch(1), written by scripts/man-page.mjs from the declarations of merch\'s commands',
    '.\\" (src/commands/): change those, not this page. One page for every command (gh writes',
    '.\\" a page per command): `man merch` is the page people open.',
    `.TH MERCH 1 ${quoted(date)} ${quoted(`merch ${version}`)} "User Commands"`,
    // Flags, command names and paths are typed as written: no word is hyphenated (HY 0 too,
    // as .EE turns hyphenation back on to HY) and no line is stretched.
    '.nr HY 0',
    '.nh',
    '.ad l',
    '.SH NAME',
    `merch \\- ${escape(help.commandDescription(program))}`,
    '.SH SYNOPSIS',
    `\\fBmerch\\fR ${term(program.usage())}`,
    '.SH DESCRIPTION',
    `${escape(help.commandDescription(program))}.`,
    'Every command below also prints its help with',
    `${term('--help')}, and ${term('merch help <command...>')} does the same.`,
    '.SH OPTIONS',
    'The global flags, taken by every command:',
    ...items(help.visibleOptions(program).map((option) => [help.optionTerm(option), help.optionDescription(option)])),
    '.SH COMMANDS',
    ...declared(program).flatMap(commandSections),
    '.SH EXAMPLES',
    // The section's own title is the help's "Examples:" line.
    ...textAfterHelp(helpAfter(program).filter((line) => line !== 'Examples:')),
    '.SH ENVIRONMENT',
    ...topicText(environment),
    '.SH FILES',
    ...items(
      [
        ['~/.config/merch/config.json', 'the profiles (merch config, merch login), mode 0600; the tokens and keys too, where no OS keyring answers. MERCH_CONFIG_DIR or XDG_CONFIG_HOME chooses another directory (ENVIRONMENT).'],
        ['~/.config/merch/events.jsonl', 'the journal of the events merch webhooks listen received, which merch webhooks replay and merch orders watch read (--journal names another)'],
      ],
      (file) => `\\fI${escape(file)}\\fR`,
    ),
    '.SH EXIT STATUS',
    ...topicText(exitCodes),
    '.SH SEE ALSO',
    `${term('merch help environment')}, ${term('merch help exit-codes')}, ${term('merch completion <shell>')};`,
    'README.md and docs/ in the source of merch.',
  ];
  return `${lines.join('\n')}\n`;
}

/** The day (UTC) of SOURCE_DATE_EPOCH (whole seconds since 1970), or '' when it is not set. */
export function manDate(sourceDateEpoch) {
  if (sourceDateEpoch === undefined || sourceDateEpoch === '') return '';
  if (!/^\d+$/.test(sourceDateEpoch)) throw new Error(`SOURCE_DATE_EPOCH must be whole seconds since 1970, not ${JSON.stringify(sourceDateEpoch)}`);
  return new Date(Number(sourceDateEpoch) * 1000).toISOString().slice(0, 10);
}

/**
 * Text as roff prints it: a backslash as \e; every '-' as '\-', since merch's hyphens are
 * typed (flags, command names, values) and '-' may render as a hyphen that a shell does
 * not take; a comma inside a word may end a line (\:), as a value such as
 * 'first_name=..,last_name=..' is longer than a line and is never hyphenated; beyond ASCII
 * as \[uXXXX], so the page needs no preconv; a line that would start with '.' or "'" (a
 * request to roff) begins with \&.
 */
export function escape(text) {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/,(?=\S)/g, ',\\:')
    .replace(/[^\n\x20-\x7e]/gu, (char) => `\\[u${char.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}]`)
    .replace(/^[.']/gm, '\\&$&');
}

/** A macro's argument: quoted, its quotes as \(dq. */
function quoted(text) {
  return `"${escape(text).replace(/"/g, '\\(dq')}"`;
}

/** A flag, usage or argument as its help writes it: flags and words in bold, placeholders (<file>, [options]) in italics. */
function term(text) {
  return text
    .split(/(<[^>]*>|\[[^\]]*\])/)
    .map((piece, index) => (index % 2 === 1 ? `\\fI${escape(piece)}\\fR` : piece.replace(/[^\s,]+/g, (word) => `\\fB${escape(word)}\\fR`)))
    .join('');
}

/** A list of names and what they are (flags, arguments, files): .TP each. */
function items(entries, format = term) {
  return entries.flatMap(([name, description]) => ['.TP', format(name), ...(description ? [escape(description)] : [])]);
}

/** The commands a command declares, as its help lists them: hidden ones and commander's implicit `help` left out. */
function declared(command) {
  return command
    .createHelp()
    .visibleCommands(command)
    .filter((child) => command.commands.includes(child));
}

/** A command's section (its usage as the title, description, arguments, its own flags, examples), then its commands'. */
function commandSections(command) {
  const help = command.createHelp();
  const ownOptions = help.visibleOptions(command).filter((option) => command.options.includes(option));
  return [
    `.SS ${quoted(help.commandUsage(command))}`,
    escape(help.commandDescription(command)),
    ...items(help.visibleArguments(command).map((argument) => [help.argumentTerm(argument), help.argumentDescription(argument)])),
    ...items(ownOptions.map((option) => [help.optionTerm(option), help.optionDescription(option)])),
    ...textAfterHelp(helpAfter(command)),
    ...declared(command).flatMap(commandSections),
  ];
}

/** The lines a command's help prints after commander's own (src/commands/register.ts: its examples, a "See ..." line). */
function helpAfter(command) {
  let text = '';
  command.emit('afterHelp', { error: false, command, write: (written) => (text += written) });
  return text.split('\n').filter((line) => line.trim() !== '');
}

/** The lines after a command's help: the indented ones (examples) as typed, in one block without fill; the others, paragraphs. */
function textAfterHelp(lines) {
  const roff = [];
  lines.forEach((line, index) => {
    const indented = line.startsWith(' ');
    if (!indented) roff.push('.PP', escape(line));
    else {
      if (!lines[index - 1]?.startsWith(' ')) roff.push('.RS 4', '.EX');
      roff.push(escape(line.trim()));
      if (!lines[index + 1]?.startsWith(' ')) roff.push('.EE', '.RE');
    }
  });
  return roff;
}

/** A help topic's text: rows ("  NAME  what it is") as .TP, other lines as paragraphs. */
function topicText(text) {
  const lines = [];
  let inParagraph = false;
  for (const line of text.split('\n')) {
    const row = /^ +(\S.*?) {2,}(\S.*)$/.exec(line);
    if (row) lines.push('.TP', `\\fB${escape(row[1])}\\fR`, escape(row[2]));
    else if (line.trim() !== '') lines.push(...(inParagraph ? [] : ['.PP']), escape(line.trim()));
    inParagraph = !row && line.trim() !== '';
  }
  return lines;
}
