import { ChatModeInput, fieldErrors, type ChatMode } from '@gpt/contracts';

import type { ModeBody } from './api/save-mode';

/** The mode form as the admin fills it in; the rules and their Russian texts are the API's own. */
export interface ModeFormValues {
  name: string;
  emoji: string;
  description: string;
  system_prompt: string;
  sort_order: string;
  is_active: boolean;
  is_default: boolean;
}

export function formOf(mode: ChatMode | null): ModeFormValues {
  return {
    name: mode?.name ?? '',
    emoji: mode?.emoji ?? '',
    description: mode?.description ?? '',
    system_prompt: mode?.system_prompt ?? '',
    sort_order: String(mode?.sort_order ?? 0),
    is_active: mode?.is_active ?? true,
    is_default: mode?.is_default ?? false,
  };
}

export function bodyOf(values: ModeFormValues): ModeBody {
  const { sort_order, ...rest } = values;
  return { ...rest, sort_order: sort_order.trim() === '' ? Number.NaN : Number(sort_order) };
}

export const validateMode = (values: ModeFormValues) =>
  fieldErrors(ChatModeInput, bodyOf(values)) as Partial<Record<keyof ModeFormValues, string>>;
