import type { BrandKit, LogoPosition } from '@moments/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

/** Brand kits: the user's logos, caption styles and intro/outro cards. */
export const BRAND_KITS_KEY = ['brand-kits'] as const;

export const useBrandKits = () =>
  useQuery({ queryKey: BRAND_KITS_KEY, queryFn: () => api.get<BrandKit[]>('/api/brand_kit/list') });

/** What the kit form sends; a field left undefined is not sent (a change keeps it). */
export interface BrandKitForm {
  name?: string;
  logo?: File | null;
  removeLogo?: boolean;
  logo_position?: LogoPosition;
  logo_opacity?: number;
  logo_scale?: number;
  style?: BrandKit['style'];
  intro_text?: string;
  outro_text?: string;
}

function formData(form: BrandKitForm): FormData {
  const data = new FormData();
  if (form.name !== undefined) data.set('name', form.name);
  if (form.logo_position !== undefined) data.set('logo_position', form.logo_position);
  if (form.logo_opacity !== undefined) data.set('logo_opacity', String(form.logo_opacity));
  if (form.logo_scale !== undefined) data.set('logo_scale', String(form.logo_scale));
  if (form.style !== undefined) data.set('style', JSON.stringify(form.style));
  if (form.intro_text !== undefined) data.set('intro_text', form.intro_text);
  if (form.outro_text !== undefined) data.set('outro_text', form.outro_text);
  if (form.removeLogo) data.set('remove_logo', 'true');
  if (form.logo) data.set('logo', form.logo);
  return data;
}

export function useCreateBrandKit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: BrandKitForm) => api.post<{ id: string }>('/api/brand_kit', formData(form)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BRAND_KITS_KEY }),
  });
}

export function useUpdateBrandKit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, form }: { id: string; form: BrandKitForm }) =>
      api.put<BrandKit>(`/api/brand_kit/${encodeURIComponent(id)}`, formData(form)),
    onSuccess: (saved) => {
      // The editor shows the kit's new style at once, not after the list is read again.
      queryClient.setQueryData<BrandKit[]>(BRAND_KITS_KEY, (kits) =>
        kits?.map((kit) => (kit.id === saved.id ? saved : kit)),
      );
      // A caption preview made with the kit's old style is not what an export makes now.
      void queryClient.invalidateQueries({ queryKey: ['captions', 'preview'] });
      return queryClient.invalidateQueries({ queryKey: BRAND_KITS_KEY });
    },
  });
}

export function useDeleteBrandKit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<null>(`/api/brand_kit/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: BRAND_KITS_KEY }),
  });
}
