import {
  Alert,
  Checkbox,
  Group,
  NumberInput,
  Select,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { PLATFORMS, type ExportAspect, type HookTitle, type Platform } from '@moments/contract';
import { exceedsPlatformLength, PLATFORM_PRESETS } from '@moments/domain/platforms';
import { formatClock } from './trim';
import { t } from '../messages/catalogue';

const PLATFORM_OPTIONS = PLATFORMS.map((platform) => ({
  value: platform,
  label: t(`style.platform.${platform}`),
}));

interface Props {
  /** The title card over the first seconds; null for none. */
  hookTitle: HookTitle | null;
  onHookTitleChange(hook: HookTitle | null): void;
  /** What the title says when switched on: the moment's title. */
  defaultTitle: string;
  platform: Platform;
  onPlatformChange(platform: Platform): void;
  /** A platform chosen brings its shape (9:16). */
  onAspectChange(aspect: ExportAspect): void;
  clipMs: number;
  safeZoneShown: boolean;
  onSafeZoneShownChange(shown: boolean): void;
}

/**
 * The hook title (text and how long it shows) and the platform the clip is made for: its shape,
 * whether the clip is too long for it, and its safe zone drawn over the preview.
 */
export function HookAndPlatformFields(props: Props) {
  const { hookTitle, platform } = props;
  const max = PLATFORM_PRESETS[platform].maxSeconds;
  const choosePlatform = (next: Platform) => {
    props.onPlatformChange(next);
    if (next !== 'generic') props.onAspectChange(PLATFORM_PRESETS[next].aspect);
  };
  return (
    <Stack gap="sm">
      <Switch
        label={t('style.hook')}
        checked={hookTitle !== null}
        onChange={(event) =>
          props.onHookTitleChange(
            event.currentTarget.checked
              ? { text: props.defaultTitle.slice(0, 120) || '…', seconds: 3 }
              : null,
          )
        }
      />
      {hookTitle && (
        <Group grow align="flex-start">
          <TextInput
            label={t('style.hook.text')}
            value={hookTitle.text}
            maxLength={120}
            data-testid="hook-title-text"
            onChange={(event) =>
              props.onHookTitleChange({ ...hookTitle, text: event.currentTarget.value })
            }
          />
          <NumberInput
            label={t('style.hook.seconds')}
            min={0.5}
            max={10}
            step={0.5}
            decimalScale={1}
            value={hookTitle.seconds}
            onChange={(next) =>
              typeof next === 'number' && props.onHookTitleChange({ ...hookTitle, seconds: next })
            }
          />
        </Group>
      )}
      <Group align="flex-end">
        <Select
          label={t('style.platform')}
          data={PLATFORM_OPTIONS}
          value={platform}
          onChange={(next) => next && choosePlatform(next as Platform)}
          allowDeselect={false}
          data-testid="platform-select"
        />
        <Checkbox
          label={t('style.safeZone')}
          checked={props.safeZoneShown}
          onChange={(event) => props.onSafeZoneShownChange(event.currentTarget.checked)}
          data-testid="safe-zone-toggle"
        />
      </Group>
      {max !== null && exceedsPlatformLength(platform, props.clipMs) && (
        <Alert color="yellow" data-testid="platform-too-long">
          {t('style.platform.tooLong', {
            length: formatClock(props.clipMs),
            platform: t(`style.platform.${platform}`),
            max: formatClock(max * 1000),
          })}
        </Alert>
      )}
    </Stack>
  );
}
