import {
  ActionIcon,
  Box,
  Button,
  Card,
  Checkbox,
  FileInput,
  Group,
  NumberInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { LOGO_POSITIONS, type BrandKit, type LogoPosition } from '@moments/contract';
import { placeLogo } from '@moments/domain/brand-kits';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import {
  useBrandKits,
  useCreateBrandKit,
  useDeleteBrandKit,
  useUpdateBrandKit,
} from '../../api/brandKits';
import { t, type MessageKey } from '../../messages/catalogue';

export const POSITION_LABELS: Record<LogoPosition, MessageKey> = {
  top_left: 'brandKits.position.top_left',
  top_right: 'brandKits.position.top_right',
  bottom_left: 'brandKits.position.bottom_left',
  bottom_right: 'brandKits.position.bottom_right',
};

/** The preview frame: a 9:16 clip shown 180 pixels wide. */
const PREVIEW = { width: 180, height: 320 };

/** A small 9:16 frame with the logo where the export puts it. */
function LogoPlacementPreview({
  url,
  size,
  position,
  opacity,
  scale,
}: {
  url: string | null;
  size: { width: number; height: number } | null;
  position: LogoPosition;
  opacity: number;
  scale: number;
}) {
  const rect = size ? placeLogo({ frame: PREVIEW, logo: size, position, scale }) : null;
  return (
    <Box
      data-testid="brand-kit-preview"
      style={{
        position: 'relative',
        width: PREVIEW.width,
        height: PREVIEW.height,
        background: 'linear-gradient(160deg, #4b5563, #1f2937)',
        borderRadius: 8,
        overflow: 'hidden',
      }}
    >
      {url && rect ? (
        <img
          src={url}
          alt=""
          style={{
            position: 'absolute',
            left: rect.x,
            top: rect.y,
            width: rect.width,
            height: rect.height,
            opacity,
          }}
        />
      ) : null}
    </Box>
  );
}

/** The natural size of an image at `url`, once it has loaded. */
function useImageSize(url: string | null) {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    setSize(null);
    if (!url) return;
    const image = new Image();
    image.onload = () => setSize({ width: image.naturalWidth, height: image.naturalHeight });
    image.src = url;
  }, [url]);
  return size;
}

/** The kit form: making a kit (no `kit`) or changing one. */
function KitForm({ kit, onDone }: { kit?: BrandKit; onDone: () => void }) {
  const create = useCreateBrandKit();
  const update = useUpdateBrandKit();
  const [name, setName] = useState(kit?.name ?? '');
  const [logo, setLogo] = useState<File | null>(null);
  const [removeLogo, setRemoveLogo] = useState(false);
  const [position, setPosition] = useState<LogoPosition>(kit?.logo_position ?? 'top_right');
  const [opacity, setOpacity] = useState(Math.round((kit?.logo_opacity ?? 0.9) * 100));
  const [scale, setScale] = useState(Math.round((kit?.logo_scale ?? 0.18) * 100));
  const [intro, setIntro] = useState(kit?.intro_text ?? '');
  const [outro, setOutro] = useState(kit?.outro_text ?? '');
  const fileUrl = useMemo(() => (logo ? URL.createObjectURL(logo) : null), [logo]);
  useEffect(() => () => (fileUrl ? URL.revokeObjectURL(fileUrl) : undefined), [fileUrl]);
  const shownUrl = fileUrl ?? (removeLogo ? null : (kit?.logo_url ?? null));
  const size = useImageSize(shownUrl);
  const pending = create.isPending || update.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const form = {
      name: name.trim(),
      logo_position: position,
      logo_opacity: opacity / 100,
      logo_scale: scale / 100,
      intro_text: intro,
      outro_text: outro,
      ...(logo ? { logo } : {}),
      ...(removeLogo && !logo ? { removeLogo: true } : {}),
    };
    if (kit) update.mutate({ id: kit.id, form }, { onSuccess: onDone });
    else create.mutate(form, { onSuccess: onDone });
  };

  return (
    <form
      onSubmit={submit}
      aria-label={kit ? t('brandKits.edit', { name: kit.name }) : t('brandKits.new')}
    >
      <Group align="flex-start" gap="xl" wrap="wrap">
        <Stack gap="sm" style={{ flex: '1 1 280px' }}>
          <TextInput
            label={t('brandKits.name')}
            value={name}
            maxLength={60}
            required
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <FileInput
            label={t('brandKits.logo')}
            accept="image/png,image/jpeg,image/svg+xml"
            value={logo}
            clearable
            clearButtonProps={{ 'aria-label': t('brandKits.clearLogo') }}
            onChange={setLogo}
          />
          {kit?.logo_url && !logo && (
            <Checkbox
              label={t('brandKits.removeLogo')}
              checked={removeLogo}
              onChange={(event) => setRemoveLogo(event.currentTarget.checked)}
            />
          )}
          <Select
            label={t('brandKits.position')}
            data={LOGO_POSITIONS.map((value) => ({ value, label: t(POSITION_LABELS[value]) }))}
            value={position}
            allowDeselect={false}
            onChange={(value) => value && setPosition(value as LogoPosition)}
          />
          <Group grow>
            <NumberInput
              label={t('brandKits.opacity')}
              min={5}
              max={100}
              value={opacity}
              onChange={(value) => setOpacity(Number(value) || 5)}
            />
            <NumberInput
              label={t('brandKits.scale')}
              min={5}
              max={50}
              value={scale}
              onChange={(value) => setScale(Number(value) || 5)}
            />
          </Group>
          <TextInput
            label={t('brandKits.intro_text')}
            value={intro}
            maxLength={120}
            onChange={(event) => setIntro(event.currentTarget.value)}
          />
          <TextInput
            label={t('brandKits.outro_text')}
            value={outro}
            maxLength={120}
            onChange={(event) => setOutro(event.currentTarget.value)}
          />
          <Group>
            <Button type="submit" loading={pending} disabled={!name.trim()}>
              {kit ? t('brandKits.save') : t('brandKits.create')}
            </Button>
            <Button variant="default" onClick={onDone}>
              {t('brandKits.cancel')}
            </Button>
          </Group>
        </Stack>
        <LogoPlacementPreview
          url={shownUrl}
          size={size}
          position={position}
          opacity={opacity / 100}
          scale={scale / 100}
        />
      </Group>
    </form>
  );
}

function KitRow({ kit, onEdit }: { kit: BrandKit; onEdit: () => void }) {
  const remove = useDeleteBrandKit();
  return (
    <Card withBorder p="md">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="md" wrap="nowrap">
          {kit.logo_url ? (
            <img
              src={kit.logo_url}
              alt={t('brandKits.logoAlt', { name: kit.name })}
              style={{ maxWidth: 64, maxHeight: 40, objectFit: 'contain' }}
            />
          ) : (
            <Text size="xs" c="dimmed">
              {t('brandKits.noLogo')}
            </Text>
          )}
          <Stack gap={0}>
            <Text fw={600}>{kit.name}</Text>
            <Text size="sm" c="dimmed">
              {t(POSITION_LABELS[kit.logo_position])} · {Math.round(kit.logo_opacity * 100)}%
            </Text>
          </Stack>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <ActionIcon
            variant="subtle"
            aria-label={t('brandKits.editLabel', { name: kit.name })}
            onClick={onEdit}
          >
            <IconPencil size={18} />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            loading={remove.isPending}
            aria-label={t('brandKits.deleteLabel', { name: kit.name })}
            onClick={() => remove.mutate(kit.id)}
          >
            <IconTrash size={18} />
          </ActionIcon>
        </Group>
      </Group>
    </Card>
  );
}

/** Settings → Brand kits: the user's kits, made, changed and deleted here. */
export function BrandKitSettings() {
  const kits = useBrandKits();
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  return (
    <Card p="xl">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('brandKits.title')}
          </Title>
          {editing === null && (
            <Button onClick={() => setEditing('new')}>{t('brandKits.new')}</Button>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {t('brandKits.intro')}
        </Text>
        {editing === 'new' && <KitForm onDone={() => setEditing(null)} />}
        {kits.data?.length === 0 && editing === null && (
          <Text size="sm" c="dimmed">
            {t('brandKits.empty')}
          </Text>
        )}
        {kits.data?.map((kit) =>
          editing === kit.id ? (
            <KitForm key={kit.id} kit={kit} onDone={() => setEditing(null)} />
          ) : (
            <KitRow key={kit.id} kit={kit} onEdit={() => setEditing(kit.id)} />
          ),
        )}
      </Stack>
    </Card>
  );
}
