import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  API_TOKEN_NAME_MAX,
  API_TOKEN_SCOPES,
  WEBHOOK_EVENTS,
  WEBHOOK_URL_MAX,
  type ApiTokenScope,
  type Webhook,
  type WebhookDeliveryStatus,
  type WebhookEvent,
} from '@moments/contract';
import { IconCheck, IconCopy, IconTrash } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import {
  useApiTokens,
  useCreateApiToken,
  useCreateWebhook,
  useDeleteWebhook,
  useRevokeApiToken,
  useTestWebhook,
  useWebhookDeliveries,
  useWebhooks,
} from '../../api/integrations';
import { t, type MessageKey } from '../../messages/catalogue';

const SCOPE_LABELS: Record<ApiTokenScope, MessageKey> = {
  read: 'integrations.scope.read',
  write: 'integrations.scope.write',
  billing: 'integrations.scope.billing',
};
const DELIVERY_LABELS: Record<WebhookDeliveryStatus, MessageKey> = {
  pending: 'integrations.delivery.pending',
  succeeded: 'integrations.delivery.succeeded',
  failed: 'integrations.delivery.failed',
};
const DELIVERY_COLORS: Record<WebhookDeliveryStatus, string> = {
  pending: 'yellow',
  succeeded: 'teal',
  failed: 'red',
};
const EXPIRY_DAYS = ['30', '90', '365'];
const DAY_MS = 86_400_000;
const when = (epochMs: number | null) =>
  epochMs === null ? t('integrations.tokens.never') : new Date(epochMs).toLocaleString();

/** A secret shown once, with a button that copies it. */
function ShownOnce({
  notice,
  value,
  copyLabel,
}: {
  notice: string;
  value: string;
  copyLabel: string;
}) {
  return (
    <Alert color="yellow" title={notice}>
      <Group gap="xs" wrap="nowrap">
        <Code style={{ wordBreak: 'break-all' }}>{value}</Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button
              size="xs"
              variant={copied ? 'light' : 'filled'}
              color={copied ? 'teal' : undefined}
              leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
              onClick={copy}
            >
              {copied ? t('integrations.copied') : copyLabel}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Alert>
  );
}

function TokensCard() {
  const tokens = useApiTokens();
  const create = useCreateApiToken();
  const revoke = useRevokeApiToken();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiTokenScope[]>(['read']);
  const [expiry, setExpiry] = useState<string>('never');
  const [shown, setShown] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const expiresAt = expiry === 'never' ? null : Date.now() + Number(expiry) * DAY_MS;
    create.mutate(
      { name: name.trim(), scopes, expires_at: expiresAt },
      {
        onSuccess: (made) => {
          setShown(made.token);
          setName('');
        },
      },
    );
  };

  return (
    <Card p="xl">
      <Stack gap="md">
        <Title order={2} size="h4">
          {t('integrations.tokens.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('integrations.tokens.intro')}
        </Text>
        {shown && (
          <ShownOnce
            notice={t('integrations.tokens.created')}
            value={shown}
            copyLabel={t('integrations.tokens.copy')}
          />
        )}
        <form onSubmit={submit}>
          <Stack gap="sm">
            <TextInput
              label={t('integrations.tokens.name')}
              placeholder={t('integrations.tokens.namePlaceholder')}
              value={name}
              maxLength={API_TOKEN_NAME_MAX}
              required
              onChange={(event) => setName(event.currentTarget.value)}
            />
            <Checkbox.Group
              label={t('integrations.tokens.scopes')}
              value={scopes}
              onChange={(value) => setScopes(value as ApiTokenScope[])}
            >
              <Stack gap={6} mt={6}>
                {API_TOKEN_SCOPES.map((scope) => (
                  <Checkbox key={scope} value={scope} label={t(SCOPE_LABELS[scope])} />
                ))}
              </Stack>
            </Checkbox.Group>
            <Select
              label={t('integrations.tokens.expiry')}
              value={expiry}
              allowDeselect={false}
              onChange={(value) => setExpiry(value ?? 'never')}
              data={[
                { value: 'never', label: t('integrations.tokens.expiry.never') },
                ...EXPIRY_DAYS.map((days) => ({
                  value: days,
                  label: t('integrations.tokens.expiry.days', { count: days }),
                })),
              ]}
              w={200}
            />
            <Group>
              <Button
                type="submit"
                loading={create.isPending}
                disabled={!name.trim() || scopes.length === 0}
              >
                {t('integrations.tokens.create')}
              </Button>
            </Group>
          </Stack>
        </form>
        {tokens.data?.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('integrations.tokens.empty')}
          </Text>
        )}
        {!!tokens.data?.length && (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('integrations.tokens.name')}</Table.Th>
                  <Table.Th>{t('integrations.tokens.scopes')}</Table.Th>
                  <Table.Th>{t('integrations.tokens.created.column')}</Table.Th>
                  <Table.Th>{t('integrations.tokens.lastUsed')}</Table.Th>
                  <Table.Th>{t('integrations.tokens.expiry')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('integrations.tokens.revoke')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {tokens.data.map((token) => (
                  <Table.Tr key={token.id}>
                    <Table.Td>
                      <Text size="sm">{token.name}</Text>
                      <Code>{token.prefix}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        {token.scopes.map((scope) => (
                          <Badge key={scope} variant="light">
                            {scope}
                          </Badge>
                        ))}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{when(token.created)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{when(token.last_used)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{when(token.expires_at)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        color="red"
                        variant="light"
                        aria-label={t('integrations.tokens.revokeLabel', { name: token.name })}
                        loading={revoke.isPending && revoke.variables === token.id}
                        onClick={() => revoke.mutate(token.id)}
                      >
                        {t('integrations.tokens.revoke')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Card>
  );
}

function DeliveryLog({ webhook }: { webhook: Webhook }) {
  const deliveries = useWebhookDeliveries(webhook.id, true);
  if (deliveries.data?.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('integrations.webhooks.noDeliveries')}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('integrations.deliveries.event')}</Table.Th>
            <Table.Th>{t('integrations.deliveries.status')}</Table.Th>
            <Table.Th>{t('integrations.deliveries.code')}</Table.Th>
            <Table.Th>{t('integrations.deliveries.attempts')}</Table.Th>
            <Table.Th>{t('integrations.deliveries.time')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deliveries.data?.map((delivery) => (
            <Table.Tr key={delivery.id}>
              <Table.Td>
                <Code>{delivery.event}</Code>
              </Table.Td>
              <Table.Td>
                <Badge color={DELIVERY_COLORS[delivery.status]} variant="light">
                  {t(DELIVERY_LABELS[delivery.status])}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{delivery.response_code ?? '—'}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{delivery.attempts}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{when(delivery.last_attempt ?? delivery.created)}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function WebhookRow({ webhook }: { webhook: Webhook }) {
  const [open, setOpen] = useState(false);
  const test = useTestWebhook();
  const remove = useDeleteWebhook();
  return (
    <Card withBorder p="md">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} style={{ wordBreak: 'break-all' }}>
              {webhook.url}
            </Text>
            <Group gap={4}>
              {webhook.events.map((event) => (
                <Badge key={event} variant="outline" size="sm">
                  {event}
                </Badge>
              ))}
            </Group>
          </Stack>
          <ActionIcon
            color="red"
            variant="subtle"
            aria-label={t('integrations.webhooks.deleteLabel', { url: webhook.url })}
            loading={remove.isPending}
            onClick={() => remove.mutate(webhook.id)}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
        <Group gap="xs">
          <Button
            size="xs"
            variant="light"
            loading={test.isPending}
            onClick={() => test.mutate(webhook.id, { onSuccess: () => setOpen(true) })}
          >
            {t('integrations.webhooks.test')}
          </Button>
          <Button size="xs" variant="subtle" onClick={() => setOpen((value) => !value)}>
            {open ? t('integrations.webhooks.hideLog') : t('integrations.webhooks.showLog')}
          </Button>
        </Group>
        {open && <DeliveryLog webhook={webhook} />}
      </Stack>
    </Card>
  );
}

function WebhooksCard() {
  const webhooks = useWebhooks();
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['task.done', 'export.done']);
  const [secret, setSecret] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { url: url.trim(), events },
      {
        onSuccess: (made) => {
          setSecret(made.secret);
          setUrl('');
        },
      },
    );
  };

  return (
    <Card p="xl">
      <Stack gap="md">
        <Title order={2} size="h4">
          {t('integrations.webhooks.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('integrations.webhooks.intro')}
        </Text>
        {secret && (
          <ShownOnce
            notice={t('integrations.webhooks.created')}
            value={secret}
            copyLabel={t('integrations.webhooks.copySecret')}
          />
        )}
        <form onSubmit={submit}>
          <Stack gap="sm">
            <TextInput
              label={t('integrations.webhooks.url')}
              placeholder={t('integrations.webhooks.urlPlaceholder')}
              type="url"
              value={url}
              maxLength={WEBHOOK_URL_MAX}
              required
              onChange={(event) => setUrl(event.currentTarget.value)}
            />
            <Checkbox.Group
              label={t('integrations.webhooks.events')}
              value={events}
              onChange={(value) => setEvents(value as WebhookEvent[])}
            >
              <Group gap="md" mt={6}>
                {WEBHOOK_EVENTS.map((name) => (
                  <Checkbox key={name} value={name} label={name} />
                ))}
              </Group>
            </Checkbox.Group>
            <Group>
              <Button
                type="submit"
                loading={create.isPending}
                disabled={!url.trim() || events.length === 0}
              >
                {t('integrations.webhooks.add')}
              </Button>
            </Group>
          </Stack>
        </form>
        {webhooks.data?.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('integrations.webhooks.empty')}
          </Text>
        )}
        {webhooks.data?.map((webhook) => (
          <WebhookRow key={webhook.id} webhook={webhook} />
        ))}
      </Stack>
    </Card>
  );
}

/**
 * Settings → API: personal API tokens (made here, shown once, listed with when they were last
 * used, revoked) and webhooks (added with their events, a test event, the delivery log).
 */
export function ApiSettings() {
  return (
    <Stack gap="lg">
      <TokensCard />
      <WebhooksCard />
    </Stack>
  );
}
