import { describe, expect, it } from '@jest/globals';
import { HttpStatus, type ArgumentMetadata } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import type { Problem } from './problem.js';
import { PortalValidationPipe, UuidPipe, hasControlCharacters, inputErrors } from './validation.js';

class Item {
  @IsString() @IsNotEmpty() @MaxLength(20) name!: string;
}

class Body {
  @IsString() @IsNotEmpty() @MaxLength(20) name!: string;
  @IsOptional() @IsArray() @IsString({ each: true }) tags?: string[];
  @ApiPropertyOptional({ nullable: true, type: String })
  @ValidateIf((o: { note?: unknown }) => o.note !== undefined && o.note !== null)
  @IsString()
  note?: string | null;
  @IsOptional() @IsArray() @ArrayMaxSize(1) @ValidateNested({ each: true }) @Type(() => Item) items?: Item[];
}

const body: ArgumentMetadata = { type: 'body', metatype: Body, data: undefined };

async function refusal(value: unknown, metadata = body) {
  try {
    await new PortalValidationPipe().transform(value, metadata);
  } catch (e) {
    const problem = e as Problem;
    return { status: problem.getStatus(), ...(problem.getResponse() as object) };
  }
  return null;
}

describe('the shared validation pipe', () => {
  it('says a missing or null field is required, and a wrong type the type expected', async () => {
    expect(await refusal({})).toMatchObject({
      status: HttpStatus.UNPROCESSABLE_ENTITY,
      detail: 'name is required',
      errors: [{ field: 'name', message: 'name is required' }],
    });
    expect(await refusal({ name: null })).toMatchObject({ detail: 'name is required' });
    expect(await refusal({ name: 5 })).toMatchObject({ detail: 'name must be a string' });
    expect(await refusal({ name: 'x'.repeat(21) })).toMatchObject({
      detail: 'name must be shorter than or equal to 20 characters',
    });
    expect(await refusal({ name: 'a', tags: 'x' })).toMatchObject({ detail: 'tags must be an array' });
  });

  it('reports a list with bad items by its own constraint and the items by theirs', async () => {
    expect(await refusal({ name: 'a', items: [{ name: 'b' }, { name: 7 }] })).toMatchObject({
      errors: [
        { field: 'items', message: 'items must contain no more than 1 elements' },
        { field: 'items.1.name', message: 'name must be a string' },
      ],
    });
  });

  it('takes null only where the DTO documents it', async () => {
    expect(await refusal({ name: 'a', note: null })).toBeNull();
    expect(await refusal({ name: 'a', tags: null })).toMatchObject({
      errors: [{ field: 'tags', message: 'tags must not be null' }],
    });
  });

  it('refuses prototype keys, control characters and a list for an object before the DTO', async () => {
    expect(await refusal(JSON.parse('{"name":"a","__proto__":{"x":1}}'))).toMatchObject({
      detail: '__proto__: property __proto__ should not exist',
    });
    expect(await refusal({ name: 'a\u0000' })).toMatchObject({
      detail: 'name must not contain control characters',
    });
    expect(await refusal({ name: 'a\tb' })).toBeNull();
    expect(await refusal([{ name: 'a' }])).toMatchObject({ detail: 'body must be a JSON object' });
    expect(inputErrors({ q: 'a\nb' }, false)).toEqual([
      { field: 'q', message: 'q must not contain control characters' },
    ]);
    expect(inputErrors({ q: 'a\nb' }, true)).toEqual([]);
    expect(hasControlCharacters('\u0085', true)).toBe(true);
  });

  it('answers a malformed UUID parameter with 422 naming it', () => {
    const pipe = new UuidPipe();
    let refused: unknown;
    try {
      pipe.transform('nope', { type: 'param', data: 'contactId' });
    } catch (e) {
      refused = (e as Problem).getResponse();
    }
    expect(refused).toEqual({
      detail: 'contactId must be a UUID',
      errors: [{ field: 'contactId', message: 'contactId must be a UUID' }],
    });
    const id = '6F1C1A52-3A0E-4F43-9D55-5B3B7F2C9E10';
    expect(pipe.transform(id, { type: 'param', data: 'id' })).toBe(id);
  });
});
