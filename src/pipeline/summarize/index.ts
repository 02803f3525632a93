// Scratch stage (recipe check): the first sentence of a text, at most 200 characters.
export function firstSentence(text: string): string {
  const m = /^[\s\S]*?[.!?](\s|$)/.exec(text.trim());
  return (m ? m[0] : text).trim().slice(0, 200);
}
