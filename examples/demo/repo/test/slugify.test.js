import { test } from 'node:test'
import assert from 'node:assert/strict'
import { slugify } from '../src/slugify.js'

test('joins words with dashes', () => {
  assert.equal(slugify('Hello World'), 'hello-world')
})

test('drops punctuation at the ends', () => {
  assert.equal(slugify('  Hello, World!  '), 'hello-world')
})
