import { Alert } from '@mantine/core';

/** The yellow alert of a path naming a record the list does not have (`There is no task 42.`), or nothing. */
export function NotFoundAlert({ what, id, onClose }: { what: string; id: string | undefined; onClose?: () => void }) {
  return id === undefined ? null : (
    <Alert color="yellow" role="alert" withCloseButton={onClose !== undefined} onClose={onClose}>
      There is no {what} {id}.
    </Alert>
  );
}
