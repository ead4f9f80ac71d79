/** Every query of the chat starts with this key: an answer's end refreshes them all. */
export const chatKey = ['chat'] as const;
