export async function runClientCommand(cmd: string, _args: string[]): Promise<number> {
  console.error(`docpipe ${cmd} is not available yet`);
  return 2;
}
