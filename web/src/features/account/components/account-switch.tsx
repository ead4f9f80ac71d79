import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import Form from 'react-bootstrap/Form';

import { errorMessage } from '@/lib/api-client';

/**
 * A switch of the account that the server keeps: shown as the server answered it, disabled while that answer
 * or a change is on its way, with the reason in Russian when either fails.
 */
export function AccountSwitch<T>(props: {
  label: string;
  hint: ReactNode;
  read: UseQueryResult<T>;
  write: UseMutationResult<unknown, Error, T>;
  /** The switch's position in the server's answer, and the body that sets it. */
  on: (value: T) => boolean;
  body: (on: boolean) => T;
  readFailed: string;
}) {
  const id = useId();
  const { read, write } = props;
  const failed = read.isError
    ? errorMessage(read.error, props.readFailed)
    : write.isError
      ? errorMessage(write.error, 'Не удалось сохранить выбор.')
      : null;
  return (
    <Form.Group className="mt-3" controlId={id}>
      <Form.Check
        type="switch"
        label={props.label}
        checked={read.data === undefined ? false : props.on(read.data)}
        disabled={!read.isSuccess || write.isPending}
        onChange={(event) => write.mutate(props.body(event.target.checked))}
      />
      <Form.Text className="d-block">{props.hint}</Form.Text>
      {failed && <div className="text-danger small mt-1">{failed}</div>}
    </Form.Group>
  );
}
