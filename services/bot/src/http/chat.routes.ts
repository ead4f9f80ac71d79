import { notServed, routeHandlers } from '@gpt/kit';

/** The web chat's routes (docs/architecture.md, The assistant): being built, 404 until then. */
export function chatRoutes() {
  return routeHandlers('bot', {
    getChatConversations: notServed,
    postChatConversations: notServed,
    getChatConversationsById: notServed,
    patchChatConversationsById: notServed,
    deleteChatConversationsById: notServed,
    getChatConversationsByIdExport: notServed,
    postChatConversationsByIdMessages: notServed,
    getChatAnswersByAnswerIdEvents: notServed,
    postChatAnswersByAnswerIdStop: notServed,
    getChatSearch: notServed,
    getChatPreferences: notServed,
    putChatPreferences: notServed,
  });
}
