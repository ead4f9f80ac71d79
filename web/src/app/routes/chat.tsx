import { useQueryClient } from '@tanstack/react-query';

import { balanceKey } from '@/features/billing/api/get-balance';
import { AvailableCredits } from '@/features/billing/components/available-credits';
import { ChatScreen } from '@/features/chat/components/chat-screen';

/** /chat and /chat/{id}: a separate chunk loaded on demand (route `lazy`), so public pages carry no chat code. */
export function Component() {
  const queryClient = useQueryClient();
  return (
    <ChatScreen
      balance={<AvailableCredits />}
      onAnswerEnd={() => void queryClient.invalidateQueries({ queryKey: balanceKey })}
    />
  );
}
