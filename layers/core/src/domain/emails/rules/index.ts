export * from './addresses.ts';
export * from './attachments.ts';
export * from './headers.ts';
export * from './lookalikes.ts';
