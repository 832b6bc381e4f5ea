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
import { ENTERPRISE_FIELDS, enterpriseFormErrors } from '@moments/domain/plans';
import { useState } from 'react';
import { sendContactUs, type EnterpriseFormValues } from '../../../api/billing';
import { t } from '../../../messages/catalogue';
import { enterpriseErrorText } from '../../../messages/domain';

const EMPTY: EnterpriseFormValues = {
  first_name: '',
  last_name: '',
  business_email: '',
  company_name: '',
  company_size: '',
  company_social_channel: '',
  message: '',
};

/** The enterprise contact form: every field required, stored and mailed to us. */
export function EnterpriseContactModal({
  opened,
  onClose,
  onSent,
  email,
}: {
  opened: boolean;
  onClose(): void;
  /** Success closes the modals and shows the success message. */
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

  const inputs = {
    firstName: field('first_name'),
    lastName: field('last_name'),
    businessEmail: field('business_email'),
    companyName: field('company_name'),
    socialChannel: field('company_social_channel'),
    message: field('message'),
  };

  const submit = async () => {
    const found = Object.fromEntries(
      Object.entries(enterpriseFormErrors(values)).map(([name, code]) => [
        name,
        enterpriseErrorText(code),
      ]),
    ) as Partial<Record<(typeof ENTERPRISE_FIELDS)[number], string>>;
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
        t('pages.enterprise.failed', {
          reason: error instanceof Error ? error.message : t('pages.enterprise.unknownError'),
        }),
      );
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('title.talkToUsAboutEnterprise')} size="lg">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('pages.enterprise.firstName')} required {...inputs.firstName} />
            <TextInput label={t('pages.enterprise.lastName')} required {...inputs.lastName} />
          </SimpleGrid>
          <TextInput
            label={t('pages.enterprise.businessEmail')}
            type="email"
            required
            {...inputs.businessEmail}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('pages.enterprise.companyName')} required {...inputs.companyName} />
            <Select
              label={t('pages.enterprise.companySize')}
              required
              data={[...COMPANY_SIZES]}
              value={values.company_size || null}
              error={errors.company_size}
              onChange={(value) => setValues((prev) => ({ ...prev, company_size: value ?? '' }))}
              comboboxProps={{ withinPortal: true }}
            />
          </SimpleGrid>
          <TextInput
            label={t('pages.enterprise.socialChannel')}
            placeholder={t('pages.enterprise.socialChannelExample')}
            required
            {...inputs.socialChannel}
          />
          <Textarea
            label={t('pages.enterprise.message')}
            minRows={3}
            autosize
            required
            {...inputs.message}
          />
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('pages.enterprise.cancel')}
            </Button>
            <Button type="submit" loading={sending}>
              {t('pages.enterprise.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
