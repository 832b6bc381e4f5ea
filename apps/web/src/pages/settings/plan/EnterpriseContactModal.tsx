import {
  Alert,
  Button,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Textarea,
} from '@mantine/core';
import { COMPANY_SIZES } from '@moments/contract';
import { ENTERPRISE_FIELDS, validateEnterpriseForm } from '@moments/domain/plans';
import { useState } from 'react';
import { sendContactUs, type EnterpriseFormValues } from '../../../api/billing';

const EMPTY: EnterpriseFormValues = {
  first_name: '',
  last_name: '',
  business_email: '',
  company_name: '',
  company_size: '',
  company_social_channel: '',
  message: '',
};

/** spec §3/§5/§8 enterprise contact form: every field required, stored and mailed to us. */
export function EnterpriseContactModal({
  opened,
  onClose,
  onSent,
  email,
}: {
  opened: boolean;
  onClose(): void;
  /** Success closes the modals and shows the success message (spec §8). */
  onSent(): void;
  email?: string;
}) {
  const [values, setValues] = useState<EnterpriseFormValues>({
    ...EMPTY,
    business_email: email ?? '',
  });
  const [errors, setErrors] = useState<Partial<Record<keyof EnterpriseFormValues, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const field = (name: keyof EnterpriseFormValues) => ({
    name,
    value: values[name],
    error: errors[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      const value = event.currentTarget.value;
      setValues((prev) => ({ ...prev, [name]: value }));
    },
  });

  const submit = async () => {
    const found = validateEnterpriseForm(values);
    setErrors(found);
    setFailure(null);
    if (ENTERPRISE_FIELDS.some((name) => found[name])) return;
    setSending(true);
    try {
      await sendContactUs(values);
      setValues({ ...EMPTY, business_email: email ?? '' });
      onSent();
    } catch (error) {
      setFailure(
        `We couldn't send your request: ${error instanceof Error ? error.message : 'unknown error'}. Please try again.`,
      );
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Talk to us about Enterprise" size="lg">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="First name" required {...field('first_name')} />
            <TextInput label="Last name" required {...field('last_name')} />
          </SimpleGrid>
          <TextInput label="Business email" type="email" required {...field('business_email')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Company name" required {...field('company_name')} />
            <Select
              label="Company size"
              required
              data={[...COMPANY_SIZES]}
              value={values.company_size || null}
              error={errors.company_size}
              onChange={(value) => setValues((prev) => ({ ...prev, company_size: value ?? '' }))}
              comboboxProps={{ withinPortal: true }}
            />
          </SimpleGrid>
          <TextInput
            label="Company social channel"
            placeholder="youtube.com/@yourcompany"
            required
            {...field('company_social_channel')}
          />
          <Textarea label="Message" minRows={3} autosize required {...field('message')} />
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={sending}>
              Send
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
