/** A document the user sent, as the history shows it and as the model reads it: the question, then the text. */
export function documentPrompt(fileName: string, question: string, text: string) {
  return {
    userMessage: `📄 ${fileName}: ${question}`,
    content: `${question}\n\nТекст документа «${fileName}»:\n"""\n${text}\n"""`,
  };
}
