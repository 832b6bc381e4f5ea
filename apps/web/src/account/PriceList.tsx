import { List, Stack, Text } from '@mantine/core';
import { formatCredits } from '@moments/domain/format';
import { exportQuote, PRICE_LIST, taskQuote, type PricedWork } from '@moments/domain/plans';
import { t, type MessageKey } from '../messages/catalogue';

const WORK_LABELS: Record<PricedWork, MessageKey> = {
  summary: 'account.work.summary',
  clips: 'account.work.clips',
  finds: 'account.work.finds',
  captions: 'account.work.captions',
  transcript: 'account.work.transcript',
};

const perMinute = (units: number) => {
  const credits = formatCredits(units);
  return t(credits === '1' ? 'account.perMinute.one' : 'account.perMinute.other', { credits });
};

/**
 * The price list, computed by the one cost function in packages/domain, so the FAQ and
 * the plan page say what the start form shows and the ledger charges.
 */
export function PriceList() {
  const example = taskQuote('viral', 3 * 60_000);
  return (
    <Stack gap="xs" data-testid="price-list">
      <Text size="sm">{t('account.priceList.intro')}</Text>
      <List size="sm" spacing={2}>
        {(Object.keys(WORK_LABELS) as PricedWork[]).map((work) => (
          <List.Item key={work}>
            {t('account.priceList.item', {
              work: t(WORK_LABELS[work]),
              price: perMinute(PRICE_LIST[work]),
            })}
          </List.Item>
        ))}
      </List>
      <Text size="sm">
        {t('account.priceList.example', {
          run: formatCredits(example.run),
          summary: formatCredits(example.summary),
          total: formatCredits(example.total),
          captionExport: perMinute(exportQuote('ANIMATED_CAPTION_EXPORT', 60_000).amount),
        })}
      </Text>
    </Stack>
  );
}
