export * from './build.js'
export * from './membership.js'
export * from './priority.js'
export * from './render.js'
