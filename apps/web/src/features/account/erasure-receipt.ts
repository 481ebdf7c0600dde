import { erasureReceiptSchema, type ErasureReceipt } from '@sutura/domain/data-export';

/** Where the page after a deletion finds its receipt: this tab only, gone with it. */
const RECEIPT_KEY = 'sutura.erasureReceipt';

export function keepReceipt(receipt: ErasureReceipt): void {
  try {
    sessionStorage.setItem(RECEIPT_KEY, JSON.stringify(receipt));
  } catch {
    // Private browsing without storage: the receipt still comes by mail.
  }
}

export function keptReceipt(): ErasureReceipt | null {
  try {
    const parsed = erasureReceiptSchema.safeParse(JSON.parse(sessionStorage.getItem(RECEIPT_KEY) ?? 'null'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
