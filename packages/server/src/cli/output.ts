/** What a command prints: its result on stdout, notes for the person on stderr (so `$(fleet token create x)` is the token). */
export interface CommandOutput {
  readonly stdout: string;
  readonly stderr?: string;
}
