import { Button, Group } from '@mantine/core';
import { ApiError } from '../lib/api-error';
import { ErrorAlert } from './error-alert';
import { notifySuccess } from './notify';

type SetFieldError<F> = (field: F, error: { type: string; message: string }) => void;

/**
 * What a dialog's save does with its answer: once saved it says so and closes; the server's field errors go under the
 * form's own fields, and then the request's error is dropped rather than repeated above the buttons.
 */
export function saveAndClose<F extends string>(options: {
  successMessage: string;
  onClose: () => void;
  fields: readonly F[];
  setError: SetFieldError<F>;
  save: { reset: () => void };
}) {
  return {
    onSuccess: () => {
      notifySuccess(options.successMessage);
      options.onClose();
    },
    onError: (error: unknown) => {
      if (showServerFieldErrors(error, options.fields, options.setError)) options.save.reset();
    },
  };
}

/** Puts the server's field errors under the form's own fields (a key such as `thresholds.2` under `thresholds`). */
function showServerFieldErrors<F extends string>(error: unknown, fields: readonly F[], setError: SetFieldError<F>): boolean {
  if (!(error instanceof ApiError)) return false;
  const onFields = Object.entries(error.fieldErrors)
    .map(([key, message]) => [key.split('.')[0], message] as const)
    .filter((entry): entry is readonly [F, string] => fields.includes(entry[0] as F));
  onFields.forEach(([field, message]) => setError(field, { type: 'server', message }));
  return onFields.length > 0;
}

interface DialogFormButtonsProps {
  /** The save the form submits, as a react-query mutation offers it. */
  save: { isPending: boolean; isError: boolean; error: unknown };
  canSubmit: boolean;
  submitLabel: string;
  onCancel: () => void;
}

/** A failed save above the buttons, then Cancel and the submit button, as every form in a dialog ends. */
export function DialogFormButtons({ save, canSubmit, submitLabel, onCancel }: DialogFormButtonsProps) {
  return (
    <>
      {save.isError && <ErrorAlert error={save.error} />}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={!canSubmit} loading={save.isPending}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
