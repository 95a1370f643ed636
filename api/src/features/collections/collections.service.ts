import type { Caller, Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { isAdmin, requireAdmin, requireCaller } from '../../caller-policy.js';
import { parseId, parseInput } from '../../validation.js';
import { visibleFilesCondition } from '../access/visibility.js';
import { AudioFile } from '../files/audio-file.entity.js';
import { Collection, CollectionItem } from './collection.entity.js';
import {
  collectionFileSchema,
  createCollectionSchema,
  reorderCollectionSchema,
  updateCollectionSchema,
} from './collections.schemas.js';

export const COLLECTION_NOT_FOUND = 'Collection not found';

/** A collection as the caller sees it: `fileCount` counts only the files they may see. */
export interface CollectionSummary {
  id: string;
  name: string;
  description: string | null;
  fileCount: number;
  createdAt: Date;
  updatedAt: Date;
}

interface CollectionRow {
  id: string;
  name: string;
  description: string | null;
  file_count: string | number;
  created_at: string | Date;
  updated_at: string | Date;
}

const toSummary = (row: CollectionRow): CollectionSummary => ({
  id: row.id,
  name: row.name,
  description: row.description,
  fileCount: Number(row.file_count),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/**
 * Collections with the number of their files the caller may see, in one statement. A user sees a
 * collection only through its files: one with none they may see is left out, as if it did not
 * exist. Administrators see every file, so every collection, empty ones included.
 */
async function readCollections(ctx: Ctx, caller: Caller, onlyId?: string): Promise<CollectionSummary[]> {
  const visible = visibleFilesCondition(caller);
  const rows = await ctx.em.execute<CollectionRow[]>(
    `select c.id, c.name, c.description, c.created_at, c.updated_at, count(audio_files.id) as file_count
     from collections c
     left join collection_items ci on ci.collection_id = c.id
     left join audio_files on audio_files.id = ci.file_id and (${visible.sql})
     ${onlyId ? 'where c.id = ?' : ''}
     group by c.id
     ${isAdmin(caller.user) ? '' : 'having count(audio_files.id) > 0'}
     order by lower(c.name), c.id`,
    [...visible.params, ...(onlyId ? [onlyId] : [])],
  );
  return rows.map(toSummary);
}

/** The collections the caller may see, by name. */
export async function listCollections(ctx: Ctx): Promise<CollectionSummary[]> {
  return readCollections(ctx, requireCaller(ctx));
}

/** One collection the caller may see; one with no file they may see is NOT_FOUND, as an unknown id. */
export async function getCollection(ctx: Ctx, id: string): Promise<CollectionSummary> {
  const caller = requireCaller(ctx);
  const [found] = await readCollections(ctx, caller, parseId(id, 'id'));
  if (!found) throw new AppError('NOT_FOUND', COLLECTION_NOT_FOUND);
  return found;
}

async function findCollection(ctx: Ctx, id: string): Promise<Collection> {
  const collection = await ctx.em.findOne(Collection, { id: parseId(id, 'id') });
  if (!collection) throw new AppError('NOT_FOUND', COLLECTION_NOT_FOUND);
  return collection;
}

export async function createCollection(ctx: Ctx, rawInput: unknown): Promise<CollectionSummary> {
  requireAdmin(ctx);
  const input = parseInput(createCollectionSchema, rawInput);
  const collection = ctx.em.create(Collection, { name: input.name, description: input.description });
  await ctx.em.persist(collection).flush();
  return getCollection(ctx, collection.id);
}

export async function updateCollection(ctx: Ctx, id: string, rawInput: unknown): Promise<CollectionSummary> {
  requireAdmin(ctx);
  const collection = await findCollection(ctx, id);
  const input = parseInput(updateCollectionSchema, rawInput);
  if (input.name !== undefined) collection.name = input.name;
  if (input.description !== undefined) collection.description = input.description;
  await ctx.em.flush();
  return getCollection(ctx, collection.id);
}

export async function deleteCollection(ctx: Ctx, id: string): Promise<boolean> {
  requireAdmin(ctx);
  const collection = await findCollection(ctx, id);
  await ctx.em.remove(collection).flush();
  return true;
}

/** Puts a file at the end of a collection; a file already in it stays where it is. */
export async function addToCollection(ctx: Ctx, id: string, rawInput: unknown): Promise<CollectionSummary> {
  requireAdmin(ctx);
  const collection = await findCollection(ctx, id);
  const { fileId } = parseInput(collectionFileSchema, rawInput);
  const file = await ctx.em.findOne(AudioFile, { id: fileId.toLowerCase() });
  if (!file) throw new AppError('NOT_FOUND', 'Audio file not found');
  await ctx.em.execute(
    `insert into collection_items (collection_id, file_id, position, added_at)
     select ?, ?, coalesce(max(position) + 1, 0), now() from collection_items where collection_id = ?
     on conflict (collection_id, file_id) do nothing`,
    [collection.id, file.id, collection.id],
  );
  await touch(ctx, collection);
  return getCollection(ctx, collection.id);
}

export async function removeFromCollection(ctx: Ctx, id: string, fileId: string): Promise<CollectionSummary> {
  requireAdmin(ctx);
  const collection = await findCollection(ctx, id);
  const removed = await ctx.em.nativeDelete(CollectionItem, {
    collection: collection.id,
    file: parseId(fileId, 'fileId'),
  });
  if (removed === 0) throw new AppError('NOT_FOUND', 'The file is not in this collection');
  await touch(ctx, collection);
  return getCollection(ctx, collection.id);
}

/**
 * Gives a collection a new order. The list must name every file in it once, and no other: a list
 * made from a stale screen (a file added or removed meanwhile) is refused rather than half applied.
 */
export async function reorderCollection(ctx: Ctx, id: string, rawInput: unknown): Promise<CollectionSummary> {
  requireAdmin(ctx);
  const collection = await findCollection(ctx, id);
  const fileIds = parseInput(reorderCollectionSchema, rawInput).fileIds.map((f) => f.toLowerCase());
  await ctx.em.transactional(async (tx) => {
    const items = await tx.execute<{ file_id: string }[]>(
      'select file_id from collection_items where collection_id = ? for update',
      [collection.id],
    );
    const current = new Set(items.map((item) => item.file_id));
    if (current.size !== fileIds.length || fileIds.some((fileId) => !current.has(fileId))) {
      throw new AppError('CONFLICT', 'The new order must list every file of the collection once');
    }
    if (fileIds.length === 0) return;
    await tx.execute(
      `update collection_items set position = ordered.position
       from (select * from unnest(?::uuid[]) with ordinality as o(file_id, position)) ordered
       where collection_items.collection_id = ? and collection_items.file_id = ordered.file_id`,
      [`{${fileIds.join(',')}}`, collection.id],
    );
  });
  await touch(ctx, collection);
  return getCollection(ctx, collection.id);
}

async function touch(ctx: Ctx, collection: Collection): Promise<void> {
  collection.updatedAt = new Date();
  await ctx.em.flush();
}
