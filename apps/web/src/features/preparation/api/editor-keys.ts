/**
 * Every query of the editor's space starts with 'editor', so a realtime event (the pool changed,
 * a render finished) reaches them all with one invalidation. Names come in the reader's language.
 */
export const editorKeys = {
  all: ['editor'] as const,
  pool: (lang: string, params: PoolParams) => ['editor', 'pool', lang, params] as const,
  held: (lang: string) => ['editor', 'held', lang] as const,
  prepared: (lang: string, page: number) => ['editor', 'prepared', lang, page] as const,
  preparation: (id: string, lang: string) => ['editor', 'preparation', id, lang] as const,
};

export interface PoolParams {
  page: number;
  surgeryId: string | null;
  organId: string | null;
}
